/**
 * Changing a user everywhere it is shown: their profile (cached under an id or a ucode, so
 * found by uid) and the author of every cached post.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { UserInfo } from '#shared/schemas.ts';
import { updatePostsWhere } from '../post/cache.ts';
import { userKeys } from './queries.ts';

/** Applies `fn` to every cached profile of user `uid`. */
export function updateUser(queryClient: QueryClient, uid: number, fn: (user: UserInfo) => UserInfo): void {
  queryClient.setQueriesData<UserInfo>({ queryKey: userKeys.all }, (user) => (user && user.uid === uid ? fn(user) : user));
}

/** The viewer now follows user `uid`, or not: the profile's 关注 state and follower count, and every post by them. */
export function setUserFollowed(queryClient: QueryClient, uid: number, isFollow: boolean): void {
  updateUser(queryClient, uid, (user) =>
    user.is_follow === isFollow
      ? user
      : { ...user, is_follow: isFollow, follower_count: Math.max(0, user.follower_count + (isFollow ? 1 : -1)) },
  );
  updatePostsWhere(
    queryClient,
    (post) => post.user.uid === uid && post.user.is_follow !== isFollow,
    (post) => ({ ...post, user: { ...post.user, is_follow: isFollow } }),
  );
}
