/**
 * The app's events, one for each kind of change a write makes. The tab that made the write applies
 * the change to its own cache directly (entities/outbox/changes.ts); this file only tells the other
 * open tabs of the app (BroadcastChannel), which apply the same change (app/apply-other-tabs.ts).
 */
import type { Channel, NoticeSettings, Post, Vote } from '#shared/schemas.ts';

export type AppEvent =
  | { type: 'addPostSuccess'; post: Post }
  | { type: 'deletePost'; post_id: number }
  /** The post is not what the cache shows (a delete refused): read it and its lists again. */
  | { type: 'updatePostDetail'; post_id: number }
  | { type: 'updateLikeStatus'; post_id: number; is_like: boolean; like_count: number }
  | { type: 'updateCommentLike'; comment_id: number; is_like: boolean; like_count: number }
  /** The post's comments changed (added, deleted, or a delete refused): its count, and its list read again. */
  | { type: 'updateCommentNumber'; post_id: number; comment_count: number }
  | { type: 'updateVoteOption'; post_id: number; vote: Vote }
  /** `viewer` now follows user `uid`, or not. */
  | { type: 'updateUserStatus'; uid: number; is_follow: boolean; viewer: number }
  /** `viewer` now follows `channel`, or not. */
  | { type: 'updateChannelList'; channel: Channel; is_follow: boolean; viewer: number }
  /** `viewer` read notices: `count` are left unread. */
  | { type: 'noticesRead'; viewer: number; count: number }
  | { type: 'noticeSettings'; viewer: number; settings: NoticeSettings };

const CHANNEL_NAME = 'horde:app-events'; // horde: src/client/README.md ('horde')
const listeners = new Set<(event: AppEvent) => void>();
let channel: BroadcastChannel | null | undefined;

function otherTabs(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME);
    channel?.addEventListener('message', (event: MessageEvent<AppEvent>) => {
      if (event.data && typeof event.data.type === 'string') for (const listener of listeners) listener(event.data);
    });
  }
  return channel;
}

/** Tells the other tabs (never this one: it changed its cache itself). */
export function tellOtherTabs(events: readonly AppEvent[]): void {
  const tabs = otherTabs();
  for (const event of events) tabs?.postMessage(event);
}

/** Hears what the other tabs changed. Returns the unsubscribe. */
export function hearOtherTabs(listener: (event: AppEvent) => void): () => void {
  otherTabs();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
