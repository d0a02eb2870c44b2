import { createLazyRoute } from '@tanstack/react-router';
import { HomeLink } from '../ui/HomeLink.tsx';
import { IconError } from '../ui/icons-secondary.tsx';
import { Page } from '../ui/Page.tsx';
import { EmptyState } from '../ui/states.tsx';

export const errorLazyRoute = createLazyRoute('/error')({ component: ErrorPage });

function ErrorPage() {
  return (
    <Page title="出错了">
      <div className="card">
        <EmptyState
          icon={<IconError size={40} />}
          title="页面出了点问题"
          description="你要找的页面暂时无法显示，可能是链接有误或内容已被删除。"
          action={<HomeLink primary />}
        />
      </div>
    </Page>
  );
}
