/**
 * The one write path's storage and sending (lib/write-queue/); what each write means is
 * entities/outbox/, the list the user sees ui/outbox-panel/.
 *
 * The outbox's queue: writes are stored in IndexedDB before the first attempt, sent one at a
 * time in the order they were made, and leave the store only once the server has answered.
 * A write whose answer never came (no network, a timeout, the tab closed) stays and is sent
 * again with the same client_id when the network is back (the online event, the app's word that
 * the server is reachable again, a timer) or at the next start; the server answers a replay with
 * the first answer, so nothing is made twice. What each kind of write is, and what its answer
 * changes on screen, is the handler's business (entities/outbox/run.ts): this file knows none of it.
 *
 * Several tabs: one sends at a time (a Web Lock), each re-reads the store before every write, and
 * every change is announced to the others (BroadcastChannel), which read the store again.
 *
 * Storage refusing: a write refused for want of room drops the persisted query cache
 * and is tried again (lib/storage-room.ts); still refused, or with no IndexedDB at all (private
 * modes), it waits in this page's memory, shown and sent like any other, and the user is told
 * once that it is kept only on this page.
 */
import { del, set, values } from 'idb-keyval';
import { isSyncOutcome, OUTBOX_CHANNEL, OUTBOX_LOCK, OUTBOX_SYNCED } from '#shared/outbox-sync.ts';
import { keepWrite, storageNotice } from '../storage-room.ts';
import { bySendOrder, failureOf, nextToSend, planEnqueue, retryDelayMs, type FailureKind } from './rules.ts';
import { outboxDb, useOutbox, type QueuedWrite } from './store.ts';

export type { QueuedWrite } from './store.ts';

/** How a write made now ended, for the screen that made it (what its answer changed is in the cache). */
export type Outcome =
  | { status: 'sent' }
  /** Kept in the outbox: it goes when it can. */
  | { status: 'queued' }
  /** Refused; the screen that made it still holds its words (they are not kept). */
  | { status: 'refused'; error: unknown }
  /** Nothing to send (it undid a waiting write), or cancelled. */
  | { status: 'dropped' };

export interface QueueContext {
  /** Stores a change to the write (a picture uploaded), so a later attempt starts from there. */
  save(change: Partial<QueuedWrite>): Promise<void>;
}

/** What the queue asks of the writes it sends. */
export interface WriteHandler {
  /** Whether it knows this kind of write (one stored by another version may be unknown: dropped). */
  knows(item: QueuedWrite): boolean;
  /** Sends it; resolves once the server answered, with what shows the answer (run once it left the store). */
  send(item: QueuedWrite, context: QueueContext): Promise<(foreground: boolean) => void>;
  /**
   * It was refused: put back what was shown, say why. 'return' keeps it as a returned write for
   * its editor (a post, a comment, a complaint); 'drop' lets it go. In the foreground the screen
   * that made it still has its words, so it is dropped whatever this says.
   */
  refused(item: QueuedWrite, error: unknown, foreground: boolean): 'return' | 'drop';
  /** The user took it back before it went. */
  cancelled(item: QueuedWrite): void;
}

export interface OutboxConfig {
  handler: WriteHandler;
  /** Who is logged in: a uid, null when logged out, undefined when it cannot be known now (offline). */
  viewer(): Promise<number | null | undefined>;
  /** What a refusal says to the user. */
  message(error: unknown): string;
  /** The stored writes were read at start (to show them before anything is sent). */
  loaded?(): void;
  /** Tells the user something about the outbox itself (its storage refused a write). */
  tell?(message: string): void;
  /**
   * Calls `listener` whenever the app learns the server is reachable again beyond the browser's
   * online event (a server that was unreachable while the browser thought it was online).
   */
  onReconnect?(listener: () => void): void;
  /** A stored write as this version of the app makes it (one stored by an earlier version may differ). */
  upgrade?(item: QueuedWrite): QueuedWrite;
  /** Writes wait for the network: the service worker may send them once it is back, tab or no tab. */
  waitingForNetwork?(): void;
  /** The service worker sent writes while this page could not: say what became of them. */
  synced?(): void;
}

/** How soon a reconnect heard after failed sends brings the next try. */
export const RECONNECT_RETRY_MS = 5_000;

let config: OutboxConfig | undefined;
const waiters = new Map<string, (outcome: Outcome) => void>();
let draining: Promise<void> | null = null;
let again = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** When the pending retry is due (ms), 0 when none is. */
let retryAt = 0;
let failuresInARow = 0;
let started = false;
let channel: BroadcastChannel | null | undefined;

const keyOf = (item: QueuedWrite): IDBValidKey => [item.at, item.id];

/** Writes the browser would not store (no room, no IndexedDB), by id: they wait in this page. */
const unstored = new Map<string, QueuedWrite>();

function refusedStorage(error: unknown): void {
  console.warn('The outbox could not use its storage', error);
  const notice = storageNotice(error);
  if (notice) config?.tell?.(notice);
}

function otherTabs(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(OUTBOX_CHANNEL);
    channel?.addEventListener('message', (event: MessageEvent) => {
      void readQueue();
      if (event.data === OUTBOX_SYNCED) config?.synced?.();
    });
  }
  return channel;
}

/** Reads the store into the screen's list; resolves with the writes in send order. */
export async function readQueue(): Promise<QueuedWrite[]> {
  let stored: QueuedWrite[] = [];
  try {
    // What the service worker sent waits beside the writes for a tab to say it (background-sync.ts).
    stored = (await values<QueuedWrite>(outboxDb())).filter((record) => !isSyncOutcome(record));
  } catch (error) {
    refusedStorage(error);
  }
  const upgrade = config?.upgrade ?? ((item: QueuedWrite) => item);
  const items = [...stored.filter((item) => !unstored.has(item.id)).map(upgrade), ...unstored.values()].sort(bySendOrder);
  useOutbox.setState({ items });
  return items;
}

async function changed(): Promise<QueuedWrite[]> {
  const items = await readQueue();
  otherTabs()?.postMessage('changed');
  return items;
}

async function store(item: QueuedWrite): Promise<void> {
  try {
    await keepWrite(() => set(keyOf(item), item, outboxDb()));
    unstored.delete(item.id);
  } catch (error) {
    unstored.set(item.id, item);
    refusedStorage(error);
  }
}

async function remove(item: QueuedWrite): Promise<void> {
  unstored.delete(item.id);
  try {
    await del(keyOf(item), outboxDb());
  } catch (error) {
    // Not stored there (no IndexedDB), or a copy left behind: sent again at a next start, the
    // server answers its client_id with the first answer.
    console.warn('Could not remove a write from the outbox', error);
  }
}

/**
 * Starts the queue once per page: how writes are sent and who is logged in, then the stored
 * writes are read and sent, and again whenever the network comes back.
 */
export function startQueue(next: OutboxConfig): Promise<void> {
  config = next;
  if (!started && typeof window !== 'undefined') {
    started = true;
    otherTabs();
    window.addEventListener('online', () => void drain());
    next.onReconnect?.(reconnected);
  }
  return readQueue().then(
    () => {
      next.loaded?.();
      return drain();
    },
    (error: unknown) => console.warn('Could not read the outbox', error),
  );
}

/**
 * Queues a write and sends it when its turn comes. Resolves with what happened to it in this
 * attempt: sent, refused (the caller still has the words), or queued for later.
 */
export async function submit(item: QueuedWrite): Promise<Outcome> {
  if (!config) throw new Error('The outbox is not started');
  let outcome: Promise<Outcome> | undefined;
  const items = await readQueue();
  const plan = planEnqueue(items, item, useOutbox.getState().sending);
  const put = plan.put;
  // Heard before it is stored: a round already running that finds it sends it for this screen.
  if (put) outcome = new Promise<Outcome>((resolve) => wait(put.id, resolve));
  for (const replaced of plan.remove) {
    await remove(replaced);
    settle(replaced.id, { status: 'dropped' });
  }
  // Stored, or kept in this page's memory when the browser will not store it.
  if (put) await store(put);
  await changed();
  if (!outcome) return { status: 'dropped' };
  void drain();
  return outcome;
}

function wait(id: string, waiter: (outcome: Outcome) => void): void {
  // A write merged into one a screen already waits for: both hear how it ends.
  const earlier = waiters.get(id);
  waiters.set(id, earlier ? (outcome) => (earlier(outcome), waiter(outcome)) : waiter);
  useOutbox.setState({ trying: [...waiters.keys()] });
}

function unwait(id: string): void {
  waiters.delete(id);
  useOutbox.setState({ trying: [...waiters.keys()] });
}

function settle(id: string, outcome: Outcome): boolean {
  const waiter = waiters.get(id);
  if (!waiter) return false;
  unwait(id);
  waiter(outcome);
  return true;
}

/** Sends what waits, in order, until the queue is empty or the network, the session or the server stops it. */
export function drain(): Promise<void> {
  if (draining) {
    again = true;
    return draining;
  }
  clearTimeout(retryTimer);
  retryAt = 0;
  draining = (async () => {
    do {
      again = false;
      try {
        await exclusively(sendWaiting);
      } catch (error) {
        console.warn('The outbox stopped', error);
      }
    } while (again);
    // Writes made now that this round saw but could not send wait in the outbox.
    for (const id of seen) settle(id, { status: 'queued' });
  })().finally(() => {
    draining = null;
    // A write made as the round ended: another round.
    if (again) void drain();
  });
  return draining;
}

/** One sender across the tabs of this browser, where Web Locks exist; the store is re-read under the lock. */
function exclusively(run: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(OUTBOX_LOCK, run).then(() => undefined) : run();
}

/** The writes the last round read. */
let seen = new Set<string>();

async function sendWaiting(): Promise<void> {
  const { handler, viewer, message } = config!;
  for (;;) {
    const items = await readQueue();
    seen = new Set(items.map((item) => item.id));
    if (!items.some((item) => item.state === 'waiting')) return;
    // The browser knows it has no network: no send is tried (the online event starts the next
    // round). A request now could still leave through the service worker of a tab whose own
    // network is cut, as an emulated offline is.
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return stopped('offline');
    const uid = await viewer();
    if (uid === undefined) return stopped('offline');
    // Logged out: the writes wait for their author's login.
    if (uid === null) return;
    const next = nextToSend(items, uid);
    if (!next) return;
    if (!handler.knows(next)) {
      await remove(next);
      await changed();
      continue;
    }
    const foreground = waiters.has(next.id);
    useOutbox.setState({ sending: next.id });
    let current = next;
    const context: QueueContext = {
      async save(change) {
        current = { ...current, ...change };
        await store(current);
      },
    };
    let show: (foreground: boolean) => void;
    try {
      if (current.toggle && !current.tried) await context.save({ tried: true });
      show = await handler.send(current, context);
    } catch (error) {
      useOutbox.setState({ sending: null });
      const failure = failureOf(error, foreground);
      if (failure !== 'refused') return stopped(failure);
      const verdict = handler.refused(current, error, foreground);
      if (foreground || verdict === 'drop') await remove(current);
      else await store({ ...current, state: 'returned', error: message(error) });
      settle(next.id, { status: 'refused', error });
      await changed();
      continue;
    }
    failuresInARow = 0;
    await remove(current);
    useOutbox.setState({ sending: null });
    await changed();
    try {
      show(foreground);
    } catch (error) {
      // What the answer changes on screen failed; the write itself is made, and the queue goes on.
      console.error('Showing a sent write failed', error);
    }
    settle(next.id, { status: 'sent' });
  }
}

/**
 * The queue stops: offline and 'later' try again after a growing pause (and at once when the
 * network is back); a session that ended waits for the login (the handler's owner calls drain).
 */
function stopped(failure: Exclude<FailureKind, 'refused'>): void {
  if (failure === 'login') return;
  if (failure === 'offline') config?.waitingForNetwork?.();
  failuresInARow += 1;
  retryIn(retryDelayMs(failuresInARow));
}

function retryIn(delayMs: number): void {
  clearTimeout(retryTimer);
  retryAt = Date.now() + delayMs;
  retryTimer = setTimeout(() => {
    retryAt = 0;
    void drain();
  }, delayMs);
}

/**
 * The app heard the server answer again. After sends that failed, the next try comes soon rather
 * than at once: one call failing while the others pass (a proxy dropping it) flaps this signal,
 * and each flap must not send the failing write again.
 */
function reconnected(): void {
  if (failuresInARow === 0) void drain();
  else if (retryAt - Date.now() > RECONNECT_RETRY_MS) retryIn(RECONNECT_RETRY_MS);
}

/** The user takes a write back. The one on its way cannot be: false. */
export async function cancel(id: string): Promise<boolean> {
  if (useOutbox.getState().sending === id) return false;
  const item = (await readQueue()).find((write) => write.id === id);
  if (!item) return true;
  await remove(item);
  await changed();
  settle(id, { status: 'dropped' });
  config?.handler.cancelled(item);
  return true;
}

/**
 * An editor takes back a returned write of its own (the composer its post, a comment box its
 * comment): it leaves the outbox and is the editor's draft again.
 */
export async function takeReturned(matches: (item: QueuedWrite) => boolean): Promise<QueuedWrite | undefined> {
  const item = (await readQueue()).find((write) => write.state === 'returned' && matches(write));
  if (!item) return undefined;
  await remove(item);
  await changed();
  return item;
}

/** Lets go every write `matches` picks (a user discarding theirs as they log out), all but the one on its way. */
export async function discard(matches: (item: QueuedWrite) => boolean): Promise<void> {
  const { sending } = useOutbox.getState();
  for (const item of (await readQueue()).filter((write) => write.id !== sending && matches(write))) {
    await remove(item);
    settle(item.id, { status: 'dropped' });
  }
  await changed();
}
