/** /notice (消息通知): what others did to one's posts, comments and account. */
import { createRoute } from '@tanstack/react-router';
import { NOTICE_TABS, type NoticeTab } from '#shared/constants.ts';
import { rootRoute } from './root.tsx';

export const noticeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/notice',
  staticData: { title: '消息通知', heading: '消息通知' },
  validateSearch: (search: Record<string, unknown>): { tab?: NoticeTab | undefined } => ({
    tab: NOTICE_TABS.find((tab) => tab !== 'all' && tab === search.tab),
  }),
}).lazy(() => import('./notice.lazy.tsx').then((m) => m.noticeLazyRoute));
