/**
 * Changing a user everywhere it is shown: their profile (cached under an id or a ucode, so
 * found by uid) and the author of every cached post.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser, Post, UserInfo } from '#shared/schemas.ts';
import { updatePostsWhere } from '../post/cache.ts';
import { postKeys, type PostPages } from '../post/queries.ts';
import { sessionKeys } from '../session/queries.ts';
import { rememberLoginUser } from '../session/stored-login.ts';
import { userKeys } from './queries.ts';

/** Applies `fn` to every cached profile of user `uid`. */
export function updateUser(queryClient: QueryClient, uid: number, fn: (user: UserInfo) => UserInfo): void {
  queryClient.setQueriesData<UserInfo>({ queryKey: userKeys.all }, (user) => (user && user.uid === uid ? fn(user) : user));
}

/** What the cache shows of user `uid` (their profile, else the author of a post): their nick, and whether the viewer follows them. */
export function cachedUser(queryClient: QueryClient, uid: number): { nick: string; is_follow: boolean } | undefined {
  for (const [, user] of queryClient.getQueriesData<UserInfo>({ queryKey: userKeys.all })) {
    if (user?.uid === uid) return user;
  }
  const byThem = (post: Post) => post.user.uid === uid;
  for (const [, post] of queryClient.getQueriesData<Post>({ queryKey: postKeys.details })) {
    if (post && byThem(post)) return post.user;
  }
  for (const [, data] of queryClient.getQueriesData<PostPages>({ queryKey: postKeys.lists })) {
    const found = data?.pages.flatMap((page) => page.list).find(byThem);
    if (found) return found.user;
  }
  return undefined;
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

/** As setUserFollowed, and the viewer's own following count moves with it when it changes. */
export function showUserFollowed(queryClient: QueryClient, viewer: number, uid: number, isFollow: boolean): void {
  const before = cachedUser(queryClient, uid)?.is_follow;
  setUserFollowed(queryClient, uid, isFollow);
  if (before === undefined || before === isFollow) return;
  updateUser(queryClient, viewer, (me) => ({ ...me, following_count: Math.max(0, me.following_count + (isFollow ? 1 : -1)) }));
}

/** The login user's new nickname, shown everywhere at once: the header, their profile and their posts. */
export function showOwnNick(queryClient: QueryClient, me: LoginUser): void {
  queryClient.setQueryData(sessionKeys.user, me);
  rememberLoginUser(me);
  updateUser(queryClient, me.uid, (user) => ({ ...user, nick: me.nick }));
  updatePostsWhere(
    queryClient,
    (post) => post.user.uid === me.uid && post.user.nick !== me.nick,
    (post) => ({ ...post, user: { ...post.user, nick: me.nick } }),
  );
}
