/** /usercenter/$id: a user's profile (numeric id or ucode) and posts. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { createRoute } from '@tanstack/react-router';
import { PostList } from '../features/feed/components/PostList.tsx';
import { UserProfile } from '../features/user/components/UserProfile.tsx';
import { userInfoQueryOptions, userPostsQueryOptions, visitUserOf } from '../features/user/queries.ts';
import { PagePending, RouteError } from './route-states.tsx';
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
  pendingComponent: PagePending,
  errorComponent: RouteError,
  component: UserCenterPage,
});

function UserCenterPage() {
  const { id } = userCenterRoute.useParams();
  const visit = visitUserOf(id);
  const { data: user } = useSuspenseQuery(userInfoQueryOptions(visit));
  return (
    <div className="content-page">
      <UserProfile user={user} />
      <h2 className="section-title section-title--spaced">{user.is_self ? '我的动态' : 'TA 的动态'}</h2>
      <PostList
        options={userPostsQueryOptions(visit)}
        label={`${user.nick}的动态`}
        emptyTitle={user.is_self ? '你还没有发过动态' : 'TA 还没有发过动态'}
      />
    </div>
  );
}
