/** /usercenter/$id: a user's profile (numeric id or ucode) and posts. */
import { createRoute } from '@tanstack/react-router';
import { userPostsQueryOptions } from '../entities/post/queries.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
import { visitUserOf } from '../entities/user/visit.ts';
import { rootRoute } from './root.tsx';

export const userCenterRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/usercenter/$id',
  staticData: { heading: '个人主页' },
  loader: async ({ context, params }) => {
    const visit = visitUserOf(params.id);
    void context.queryClient.prefetchInfiniteQuery(userPostsQueryOptions(visit));
    await context.queryClient.ensureQueryData(userInfoQueryOptions(visit));
  },
}).lazy(() => import('./user.lazy.tsx').then((m) => m.userCenterLazyRoute));
