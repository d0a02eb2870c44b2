/**
 * Background Sync: a write queued offline goes out when the network returns, even with every tab
 * of the app closed. A page whose writes wait for the network registers the `sync` tag; the
 * event reads the page's own outbox (IndexedDB, src/shared/outbox-sync.ts) and sends, in order,
 * the waiting writes of whoever this browser's cookie logs in, each with its client_id, so it
 * lands once whichever of a tab and the worker sends it first (both hold the same Web Lock). It
 * stops at a write that needs the page (pictures to upload), at a login that ended, or when the
 * network goes again (the browser fires the event again later). What it did waits for the next
 * open, which says it as the page would have (published, or refused with the server's message).
 */
import { createStore, del, set, values, type UseStore } from 'idb-keyval';
import { isEnvelope } from '#shared/envelope.ts';
import { HTTP_LOGGED_IN_ELSEWHERE, routes } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import {
  bySendOrder,
  OUTBOX_CHANNEL,
  OUTBOX_DB,
  OUTBOX_LOCK,
  OUTBOX_SYNC_TAG,
  OUTBOX_SYNCED,
  syncOutcomeKey,
  type SyncableWrite,
  type SyncOutcome,
  type WireCall,
} from '#shared/outbox-sync.ts';

declare const self: ServiceWorkerGlobalScope;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/** A failed send that the next `sync` event tries again (the browser fires it again later). */
class TryLater extends Error {}

/** Codes that say the login ended: the writes wait for their author to log in again. */
const LOGIN_ENDED: ReadonlySet<number> = new Set([ErrorCode.NotLoggedIn, ErrorCode.SessionInvalid]);

let outbox: UseStore | undefined;
const outboxStore = () => (outbox ??= createStore(OUTBOX_DB.database, OUTBOX_DB.store));
/** The waiting writes of the store (beside them: outcomes not said yet), in send order. */
const waitingWrites = async () =>
  (await values<SyncableWrite>(outboxStore())).filter((write) => write.state === 'waiting').sort(bySendOrder);
const keyOf = (write: SyncableWrite): IDBValidKey => [write.at, write.id];

export function setupBackgroundSync(): void {
  self.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(sendOutbox());
  });
}

/** Sends what waits, under the lock the tabs send under; open tabs hear when something went. */
export async function sendOutbox(): Promise<void> {
  const locks = (self.navigator as Partial<NavigatorLocks>).locks;
  const { answered, failure } = locks ? await locks.request(OUTBOX_LOCK, sendWaiting) : await sendWaiting();
  if (answered > 0) {
    const channel = new BroadcastChannel(OUTBOX_CHANNEL);
    channel.postMessage(OUTBOX_SYNCED);
    channel.close();
  }
  if (failure) throw failure;
}

/** Who this browser's cookie logs in (null: nobody); a pending logout is ended by this very call. */
async function loggedInUser(): Promise<number | null> {
  const response = await fetchOrLater(`${routes.auth.path}?t=${Date.now()}`, { headers: { accept: 'application/json' }, credentials: 'include' });
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.status === HTTP_LOGGED_IN_ELSEWHERE) return null;
  if (!isEnvelope(payload)) throw new TryLater(`user/auth answered ${response.status}`);
  if (payload.code !== 0) return null;
  const uid = (payload as { data?: { uid?: unknown } }).data?.uid;
  return typeof uid === 'number' ? uid : null;
}

function fetchOrLater(url: string, init: RequestInit): Promise<Response> {
  return fetch(url, init).catch((error: unknown) => {
    throw new TryLater(error instanceof Error ? error.message : String(error));
  });
}

/** Sends the waiting writes one by one: how many the server answered, and why it stopped if it must try again. */
async function sendWaiting(): Promise<{ answered: number; failure?: unknown }> {
  let answered = 0;
  try {
    const uid = (await waitingWrites()).length === 0 ? null : await loggedInUser();
    for (;;) {
      if (uid === null) return { answered };
      const next = (await waitingWrites()).find((write) => write.uid === uid);
      // None left, or one only a tab can send: what follows it waits too, to keep the order.
      if (!next?.wire) return { answered };
      const outcome = await sendOne(next, next.wire);
      if (!outcome) return { answered };
      answered += 1;
      await set(syncOutcomeKey(next.id), outcome, outboxStore());
    }
  } catch (failure) {
    return { answered, failure };
  }
}

/** One write: its outcome once the server answered it, or null when the login ended. */
async function sendOne(write: SyncableWrite, wire: WireCall): Promise<SyncOutcome | null> {
  // A switch tried once may have been made: a later one of the same target is then sent after it, not merged.
  if (write.toggle && !write.tried) await set(keyOf(write), { ...write, tried: true }, outboxStore());
  const response = await fetchOrLater(wire.path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ ...wire.body, client_id: write.id }),
    credentials: 'include',
  });
  if (response.status === HTTP_LOGGED_IN_ELSEWHERE) return null;
  const payload: unknown = await response.json().catch(() => undefined);
  if (!isEnvelope(payload)) throw new TryLater(`${wire.path} answered ${response.status}`);
  if (payload.code === 0) {
    await del(keyOf(write), outboxStore());
    return { write, sent: true, answer: payload.data };
  }
  const { error } = payload;
  if (LOGIN_ENDED.has(error.code)) return null;
  if (error.code === ErrorCode.TooFrequent || response.status >= 500) throw new TryLater(`${wire.path} answered ${error.code}`);
  if (wire.whenRefused === 'return') await set(keyOf(write), { ...write, state: 'returned', error: error.msg }, outboxStore());
  else await del(keyOf(write), outboxStore());
  return { write, sent: false, error: { code: error.code, msg: error.msg, status: response.status } };
}
