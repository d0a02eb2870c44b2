/**
 * The outbox as the page and the service worker both read it: the page stores writes made offline
 * (src/client/lib/write-queue/), and with every tab closed the service worker's `sync` event sends
 * the ones that are a single call (sw/background-sync.ts), each with its client_id, so a write
 * lands once whichever of them sends it first. What the worker did waits in the outcomes store for
 * the next open, which says it as the page itself would have. Names keep the 'horde' prefix: a
 * renamed one would lose what a device holds (src/client/README.md, 'horde').
 */

export { OUTBOX_DB } from './outbox-db.ts';

/**
 * What the service worker did with writes while no tab was open waits in OUTBOX_DB's store beside
 * them, keyed ['synced', id] (after every write's [at, id]: IndexedDB orders a number before a
 * string). A start finds either by one count.
 */
export const SYNC_OUTCOME_KEY = 'synced';
export const syncOutcomeKey = (id: string): [string, string] => [SYNC_OUTCOME_KEY, id];
/** The Web Lock held by whoever sends (a tab or the worker): one sender at a time. */
export const OUTBOX_LOCK = 'horde:outbox';
/** The BroadcastChannel on which a change of the store is announced. */
export const OUTBOX_CHANNEL = 'horde:outbox';
/** The message on OUTBOX_CHANNEL after the worker sent: open tabs say what became of the writes. */
export const OUTBOX_SYNCED = 'synced';
/** The Background Sync tag a page registers while writes wait for the network. */
export const OUTBOX_SYNC_TAG = 'outbox';

/** A write as one call of the route table: what the service worker sends. */
export interface WireCall {
  path: string;
  /** The call's JSON body, its client_id the write's id. */
  body: Record<string, unknown>;
  /** Refused by the server: kept for its editor ('return') or let go ('drop'). */
  whenRefused: 'return' | 'drop';
}

/** The fields of a stored write the service worker reads (QueuedWrite of lib/write-queue/store.ts). */
export interface SyncableWrite {
  id: string;
  at: number;
  uid: number;
  state: 'waiting' | 'returned';
  /** Absent while the write takes more than one call (pictures still to upload): the page sends it. */
  wire?: WireCall | undefined;
  error?: string | undefined;
  /** A switch (like, follow), and whether it was sent once without an answer. */
  toggle?: unknown;
  tried?: boolean | undefined;
}

/** What the service worker did with a write: sent (the answer's data), or refused (the server's error). */
export type SyncOutcome<W extends SyncableWrite = SyncableWrite> =
  | { write: W; sent: true; answer: unknown }
  | { write: W; sent: false; error: { code: number; msg: string; status: number } };

/** Whether a record of the outbox's store is an outcome (not a write). */
export const isSyncOutcome = (record: object): record is SyncOutcome => 'sent' in record && 'write' in record;

/** Send order: oldest first; the id breaks a tie (two tabs in one millisecond). */
export function bySendOrder(a: SyncableWrite, b: SyncableWrite): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
