import { useQuery } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import type { NoticeTab } from '#shared/schemas.ts';
import { requestLogin } from '../entities/session/login.ts';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { NoticeList } from '../features/notice/components/NoticeList.tsx';
import { LoadingRegion, SkeletonLines } from '../ui/Skeleton.tsx';
import { EmptyState } from '../ui/states.tsx';
import { Page } from '../ui/Page.tsx';
import { Tabs } from '../ui/Tabs.tsx';

export const noticeLazyRoute = createLazyRoute('/notice')({ component: NoticePage });

const TABS: { key: NoticeTab; label: string }[] = [
  { key: 'all', label: '全部' },
  { key: 'comment', label: '评论' },
  { key: 'like', label: '赞' },
  { key: 'follow', label: '关注' },
];

/** /notice: tabs 全部 / 评论 / 赞 / 关注; logged out, a way to log in. */
function NoticePage() {
  const tab = noticeLazyRoute.useSearch({ select: (search) => search.tab ?? 'all' });
  const navigate = noticeLazyRoute.useNavigate();
  const session = useQuery(sessionQueryOptions());
  const user = session.data;
  return (
    <Page title="消息通知">
      {session.isPending ? (
        <LoadingRegion label="消息加载中">
          <SkeletonLines lines={3} />
        </LoadingRegion>
      ) : !user ? (
        <EmptyState
          title="登录后查看消息"
          description="有人评论、回复、点赞或关注你时，会在这里告诉你。"
          action={
            <button type="button" className="button button--primary" onClick={requestLogin}>
              登录
            </button>
          }
        />
      ) : (
        <div className="card card--flush">
          <Tabs
            label="消息分类"
            selected={tab}
            onSelect={(key) => void navigate({ search: { tab: key === 'all' ? undefined : (key as NoticeTab) }, replace: true })}
            tabs={TABS.map(({ key, label }) => ({ key, label, panel: <NoticeList uid={user.uid} tab={key} /> }))}
          />
        </div>
      )}
    </Page>
  );
}
