import { useSuspenseQuery } from '@tanstack/react-query';
import type { RouterContext } from './root.tsx';
import { createLazyRoute } from '@tanstack/react-router';
import { userPostsQueryOptions } from '../entities/post/queries.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
import { visitUserOf } from '../entities/user/visit.ts';
import { PostList } from '../features/feed/components/PostList.tsx';
import { UserProfile } from '../features/user/components/UserProfile.tsx';

/** The loader of userCenter: loaded with this page's code. */
export async function loadUserCenter({ context, params }: { context: RouterContext; params: { id: string } }): Promise<void> {
  const visit = visitUserOf(params.id);
  void context.queryClient.prefetchInfiniteQuery(userPostsQueryOptions(visit));
  await context.queryClient.ensureQueryData(userInfoQueryOptions(visit));
}

export const userCenterLazyRoute = createLazyRoute('/usercenter/$id')({ component: UserCenterPage });

function UserCenterPage() {
  const { id } = userCenterLazyRoute.useParams();
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
