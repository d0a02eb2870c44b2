/**
 * What the live stream (lib/live-stream.ts) changes on screen, within moments of it happening:
 * a new post of the feed on screen offers 有 N 条新动态 (features/feed), a change of the login
 * user's notices reads their unread count again (the 消息 badge and the app's icon), a ticket
 * ended by a login elsewhere reads the session, whose 452 shows 下线通知 at once, and `refetch`
 * (too much missed) does both reads. Loaded after the first screen, in a chunk of its own.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import type { LoginUser } from '#shared/schemas.ts';
import { noticeKeys } from '../../entities/notice/queries.ts';
import { sessionKeys } from '../../entities/session/queries.ts';
import { feedSourceOf } from '../../features/feed/feed-source.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { startLiveStream, type LiveMessage } from '../../lib/live-stream.ts';

/** Posts that come together are looked for once. */
const FEED_CHECK_GAP_MS = 1_000;

export function startLive(queryClient: QueryClient, router: AnyRouter): void {
  let feedCheck: ReturnType<typeof setTimeout> | undefined;
  // The newest post told of since the last check (undefined: a check whatever the feed shows).
  let toldOf: number | undefined = 0;
  // A hidden page asks nothing: the feed looks for newer posts when it is shown again (start-fresh-feed.ts).
  const checkFeed = (postId: number | undefined) => {
    if (document.visibilityState !== 'visible') return;
    toldOf = postId === undefined || toldOf === undefined ? undefined : Math.max(toldOf, postId);
    if (feedCheck !== undefined) return;
    feedCheck = setTimeout(() => {
      const postToFind = toldOf;
      feedCheck = undefined;
      toldOf = 0;
      if (document.visibilityState !== 'visible') return;
      loadChunk(() => import('../../features/feed/fresh-feed.ts')).then(
        (fresh) => fresh.checkNewPosts(queryClient, router, postToFind),
        () => undefined,
      );
    }, FEED_CHECK_GAP_MS);
  };
  const uid = () => queryClient.getQueryData<LoginUser | null>(sessionKeys.user)?.uid;
  const readUnread = () => {
    const user = uid();
    if (user !== undefined) void queryClient.invalidateQueries({ queryKey: noticeKeys.unread(user) });
  };

  /** Whether a new post in these channels belongs to the feed on screen (the 精华 tab has none yet). */
  const shownInFeed = (channelIds: readonly number[] | undefined) => {
    const { pathname, search } = router.state.location;
    const source = feedSourceOf(pathname, search);
    if (!source) return false;
    if ('channelId' in source) return channelIds === undefined || channelIds.includes(source.channelId);
    return source.tab !== 'good';
  };

  const onMessage = ({ kind, data }: LiveMessage) => {
    switch (kind) {
      case 'post': {
        const post = data as { post_id?: number; channel_ids?: number[] } | null;
        if (shownInFeed(post?.channel_ids)) checkFeed(post?.post_id);
        return;
      }
      case 'notice':
        readUnread();
        return;
      case 'ended':
        void queryClient.refetchQueries({ queryKey: sessionKeys.user, exact: true });
        return;
      case 'refetch':
        if (shownInFeed(undefined)) checkFeed(undefined);
        readUnread();
        return;
    }
  };
  // What happened between the page's own reads and the stream's start, the feed's own checks
  // find (on focus, on return, every minute).
  const stream = startLiveStream(onMessage);

  // The stream is opened with the ticket of whoever is logged in: another login or a logout opens
  // it again (0: nobody; undefined: not known yet, which the stream opened at start already is).
  const who = () => {
    const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
    return user === undefined ? undefined : (user?.uid ?? 0);
  };
  let streamed = who();
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated') return;
    const now = who();
    if (now === undefined || now === streamed) return;
    const known = streamed !== undefined;
    streamed = now;
    if (known) stream.reopen();
  });
}
