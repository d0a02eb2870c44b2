/**
 * The broadcast events of SPEC.md section 4 that carry changes made by the user: emitted once
 * where the change happens, heard in this tab and in every other open tab of the app
 * (BroadcastChannel), so a post deleted or liked in one tab is deleted or liked in all.
 */
import type { Post, Vote } from '#shared/schemas.ts';

export interface AppEvents {
  addPostSuccess: { post: Post };
  deletePost: { post_id: number };
  updateLikeStatus: { post_id: number; is_like: boolean; like_count: number };
  updateCommentNumber: { post_id: number; comment_count: number };
  updateVoteOption: { post_id: number; vote: Vote };
  updateUserStatus: { uid: number; is_follow: boolean };
}

export type AppEventName = keyof AppEvents;
type Handler<K extends AppEventName> = (detail: AppEvents[K]) => void;

const CHANNEL_NAME = 'horde:app-events';
const handlers = new Map<AppEventName, Set<Handler<never>>>();
let channel: BroadcastChannel | null | undefined;

function dispatch<K extends AppEventName>(type: K, detail: AppEvents[K]): void {
  for (const handler of handlers.get(type) ?? []) (handler as Handler<K>)(detail);
}

function otherTabs(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME);
    channel?.addEventListener('message', (event: MessageEvent<{ type: AppEventName; detail: never }>) => {
      if (event.data && handlers.has(event.data.type)) dispatch(event.data.type, event.data.detail);
    });
  }
  return channel;
}

/** Tells this tab and the others. */
export function emitAppEvent<K extends AppEventName>(type: K, detail: AppEvents[K]): void {
  dispatch(type, detail);
  otherTabs()?.postMessage({ type, detail });
}

/** Listens in this tab (to its own events and the other tabs'). Returns the unsubscribe. */
export function onAppEvent<K extends AppEventName>(type: K, handler: Handler<K>): () => void {
  otherTabs();
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  set.add(handler as Handler<never>);
  return () => set.delete(handler as Handler<never>);
}
