/**
 * The outbox as the screens see it: writes made offline, or whose answer never came,
 * kept in IndexedDB until they are sent, in order. This file is all of it the first screen
 * loads: the list behind 待发送 N and the pending cards, and a count of what is stored, so the
 * queue's code (queue.ts) loads only when something waits or a write is made.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import { create } from 'zustand';
import { OUTBOX_DB } from '#shared/outbox-db.ts';
import type { WireCall } from '#shared/outbox-sync.ts';

/**
 * A switch (like, follow): the state the user wants for `target`, and the one the server had
 * before; a waiting write for the same target is merged, and one that undoes it cancels both.
 */
export interface Toggle {
  target: string;
  on: boolean;
  before: boolean;
}

/** One write waiting to be sent. Stored as is (structured clone: pictures stay Blobs). */
export interface QueuedWrite<K extends string = string, D = unknown> {
  /** The write's client_id: every attempt carries the same one, so the server applies it once. */
  id: string;
  /** When it was queued (ms): writes are sent in this order. */
  at: number;
  /** Who wrote it: it is sent only while they are logged in. */
  uid: number;
  /** What kind of write it is (its entry in entities/outbox/registry.ts). */
  kind: K;
  /** What the queue calls it (动态, 评论, 点赞, ...) and a line of what it says. */
  label: string;
  text: string;
  /** Where its editor is, for a returned write: a path, or `?name=value` on the current page. */
  edit?: string | undefined;
  toggle?: Toggle | undefined;
  /**
   * A switch already sent once whose answer never came: the server may have made it, so a later
   * switch of the same target is sent after it rather than merged into it (or cancelling it).
   */
  tried?: boolean | undefined;
  /** At most one waiting write per key (the vote of a poll): a newer one replaces it. */
  replaces?: string | undefined;
  /** waiting: to be sent; returned: refused for a reason the user fixes, back to its editor. */
  state: 'waiting' | 'returned';
  /** Why it came back (returned). */
  error?: string | undefined;
  /** The write as one call, when it is one: what the service worker sends with every tab closed. */
  wire?: WireCall | undefined;
  data: D;
}

export interface OutboxState {
  /** Every stored write, in send order. */
  items: QueuedWrite[];
  /** The id of the write on its way now, if any. */
  sending: string | null;
  /**
   * Writes just made whose first attempt the screen that made them is waiting for: not yet
   * anything to show as 待发送 (an online like must not flash the button).
   */
  trying: string[];
  /** Who is logged in (undefined: not known yet): the queue shows them their own writes only. */
  viewer: number | null | undefined;
}

export const useOutbox = create<OutboxState>(() => ({ items: [], sending: null, trying: [], viewer: undefined }));

/**
 * The writes a viewer sees: their own. Nobody else's, on a device others use too: not a visitor's
 * after a logout, not another account's, not anyone's while it is not known who is logged in.
 */
export function writesOf(items: readonly QueuedWrite[], viewer: number | null | undefined): QueuedWrite[] {
  return viewer == null ? [] : items.filter((item) => item.uid === viewer);
}

let db: UseStore | undefined;

/**
 * The outbox's own IndexedDB database: never trimmed, never evicted, apart from the query cache.
 * Beside the writes it holds what the service worker sent while no tab was open, until a tab says it.
 */
export const outboxDb = (): UseStore => (db ??= createStore(OUTBOX_DB.database, OUTBOX_DB.store));

/**
 * How many writes (and outcomes of the worker's sending) are stored; -1 where IndexedDB is
 * unavailable (private modes): the queue then starts anyway, keeps writes in memory and tells the user so.
 */
export const storedWriteCount = (): Promise<number> =>
  Promise.resolve()
    .then(() => outboxDb()('readonly', (store) => promisifyRequest(store.count())))
    .catch(() => -1);
