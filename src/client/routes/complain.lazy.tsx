import { createLazyRoute, useRouter } from '@tanstack/react-router';
import { ComplainForm } from '../features/complain/components/ComplainForm.tsx';
import { HomeLink } from '../ui/HomeLink.tsx';
import { IconWarning } from '../ui/icons-secondary.tsx';
import { Page } from '../ui/Page.tsx';
import { EmptyState } from '../ui/states.tsx';
import { toast } from '../ui/toast/toast-store.ts';
import { canGoBackInSession } from '../lib/visit-history.ts';

export const complainLazyRoute = createLazyRoute('/complain')({ component: ComplainPage });

const TARGET_NAMES = { post: '动态', comment: '评论', user: '用户' } as const;

/** /complain?type=post|comment|user&id= (投诉理由): what is reported, why, then back where it came from. */
function ComplainPage() {
  const { type, id } = complainLazyRoute.useSearch();
  const router = useRouter();
  if (!type || id === undefined) {
    return (
      <Page title="投诉理由">
        <div className="card">
          <EmptyState
            icon={<IconWarning size={40} />}
            title="选择要投诉的内容"
            description="从动态、评论或用户主页的“更多”菜单发起投诉，即可选择理由并补充说明（500 字以内）。"
            action={<HomeLink />}
          />
        </div>
      </Page>
    );
  }
  return (
    <Page title="投诉理由">
      <div className="card">
        <p className="page-lead">你正在投诉一条{TARGET_NAMES[type]}。请选择理由，我们会尽快核实处理。</p>
        <ComplainForm
          type={type}
          id={id}
          onDone={(queued) => {
            if (queued) toast.info('已加入待发送，联网后自动提交');
            else toast.success('投诉已提交，我们会尽快处理');
            if (canGoBackInSession()) router.history.back();
            else void router.navigate({ to: '/home', replace: true });
          }}
        />
      </div>
    </Page>
  );
}
