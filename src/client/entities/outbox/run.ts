/**
 * The one write path. Every write (registry.ts) is made the same way:
 *
 *   write(kind, input) -> make (from the cache) -> show at once -> the queue (IndexedDB, in order,
 *   exactly once by its client_id) -> send -> settle: the answer's changes applied to this tab's
 *   cache (changes.ts) and told to the other tabs; refused or taken back -> undo, the same way.
 *
 * A waiting write keeps showing over answers read meanwhile (a refetch, the cache restored at
 * start, the service worker's copy offline): its `show` is applied again to what they bring.
 * Every attempt runs as a mutation of the query client (silent: the screen or the notices say
 * what to say), so an ended session still reaches the error hook: -2000 opens the login popup,
 * a 452 the notice; the queue waits for the login.
 */
import type { QueryClient } from '@tanstack/react-query';
import { cutText } from '#shared/text-length.ts';
import type { WireCall } from '#shared/outbox-sync.ts';
import type { LoginUser } from '#shared/schemas.ts';
import { tellOtherTabs, type AppEvent } from '../../lib/app-events.ts';
import { errorText } from '../../lib/error-text.ts';
import { ApiError } from '../../lib/http.ts';
import { askBackgroundSync, takeSyncOutcomes } from '../../lib/write-queue/background-sync.ts';
import { newClientId } from '../../lib/ids.ts';
import { discard, drain, readQueue, startQueue, submit, type Outcome, type QueueContext, type WriteHandler } from '../../lib/write-queue/queue.ts';
import { laterToggle } from '../../lib/write-queue/rules.ts';
import { useOutbox, type QueuedWrite } from '../../lib/write-queue/store.ts';
import { runMutation } from '../../lib/query-client.ts';
import { useOnlineStore } from '../../platform/online-store.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { channelKeys } from '../channel/queries.ts';
import { commentKeys } from '../comment/keys.ts';
import { postKeys } from '../post/queries.ts';
import { sessionKeys, sessionQueryOptions } from '../session/queries.ts';
import { userKeys } from '../user/queries.ts';
import { applyChange } from './changes.ts';
import { registry, type WriteAnswer, type WriteData, type WriteInput, type WriteKind } from './registry.ts';
import type { Write, WriteNotices, WriteOf } from './types.ts';

export { cancel, takeReturned, type Outcome } from '../../lib/write-queue/queue.ts';

let client: QueryClient | undefined;
let notices: WriteNotices | undefined;
let stopWatching: (() => void) | undefined;

const queryClient = (): QueryClient => {
  if (!client) throw new Error('The outbox is not started');
  return client;
};

const noticesOf = (): WriteNotices => {
  if (!notices) throw new Error('The outbox is not started');
  return notices;
};

/**
 * Runs one attempt as a mutation, so the error hook hears an ended session. Always run: a
 * mutation paused while the browser says offline would hold the queue; the outbox itself waits.
 */
const attempt = <T>(send: () => Promise<T>): Promise<T> =>
  runMutation(queryClient(), { mutationFn: send, meta: { silent: true }, networkMode: 'always' }, undefined);

const excerpt = (text: string): string => cutText(text.replace(/\s+/g, ' ').trim(), 40);

function viewerNow(): LoginUser | null | undefined {
  return client?.getQueryData<LoginUser | null>(sessionKeys.user);
}

/** Who is logged in; undefined when it cannot be known now (offline, nothing cached). */
async function viewer(): Promise<number | null | undefined> {
  const known = viewerNow();
  if (known !== undefined) return known?.uid ?? null;
  try {
    // No retries: they would pause while offline and hold the queue.
    return (await queryClient().fetchQuery({ ...sessionQueryOptions(), retry: false }))?.uid ?? null;
  } catch {
    return undefined;
  }
}

let lastMadeAt = 0;

/**
 * When a write is made, as the queue orders writes: after every write waiting, even within one
 * millisecond (a like, a comment and a follow made in one tick would otherwise go by their ids).
 */
function madeAt(): number {
  for (const item of useOutbox.getState().items) lastMadeAt = Math.max(lastMadeAt, item.at);
  lastMadeAt = Math.max(Date.now(), lastMadeAt + 1);
  return lastMadeAt;
}

const isKnown = (item: QueuedWrite): item is Write => Object.hasOwn(registry, item.kind);

/** What a write changed: applied to this tab's cache, and told to the others. */
function announce(changes: readonly AppEvent[]): void {
  const qc = queryClient();
  for (const change of changes) applyChange(qc, change);
  tellOtherTabs(changes);
}

/** A later switch of the same target waits: it, not this one, says what shows. */
const overtaken = (write: QueuedWrite): boolean => write.toggle !== undefined && laterToggle(useOutbox.getState().items, write);

function undo<K extends WriteKind>(write: WriteOf<K>): void {
  if (overtaken(write)) return;
  announce(registry[write.kind].undo?.(queryClient(), write) ?? []);
}

/** The write as the one call the service worker may send for it with every tab closed (none while it takes more). */
function wireOf<K extends WriteKind>(write: WriteOf<K>): WireCall | undefined {
  const definition = registry[write.kind];
  const call = definition.call?.(write);
  if (!call || call.endpoint.method !== 'POST') return undefined;
  return { path: call.endpoint.path, body: call.input as Record<string, unknown>, whenRefused: definition.whenRefused };
}

async function send<K extends WriteKind>(write: WriteOf<K>, context: QueueContext): Promise<(foreground: boolean) => void> {
  const definition = registry[write.kind];
  const save = (data: WriteData<K>) => context.save({ data, wire: wireOf({ ...write, data }) });
  const answer = await attempt(() => definition.send(write, { save }));
  return (foreground) => sent(write, answer, foreground);
}

/** What a sent write changed: said when the screen that made it has moved on, and shown. */
function sent<K extends WriteKind>(write: WriteOf<K>, answer: WriteAnswer<K>, foreground: boolean): void {
  if (!foreground) {
    const said = noticesOf()[write.kind].sentLater;
    if (said) toast.success(said);
  }
  if (overtaken(write)) return;
  Promise.resolve(registry[write.kind].settle?.(queryClient(), write, answer) ?? []).then(announce, (error: unknown) =>
    // The write is made; what it changed shows with the next read.
    console.warn('Could not show what a write changed', error),
  );
}

function refused<K extends WriteKind>(write: WriteOf<K>, error: unknown, foreground: boolean): 'return' | 'drop' {
  undo(write);
  const notice = noticesOf()[write.kind];
  if (!foreground) toast.error(notice.refusedLater ? `${notice.refusedLater}：${errorText(error)}` : errorText(error));
  else if (!notice.refusalShownByScreen) toast.error(errorText(error));
  return registry[write.kind].whenRefused;
}

const handler: WriteHandler = {
  knows: isKnown,
  send: (item, context) => (isKnown(item) ? send(item, context) : Promise.reject(new Error(`Unknown write ${item.kind}`))),
  refused: (item, error, foreground) => (isKnown(item) ? refused(item, error, foreground) : 'drop'),
  cancelled: (item) => {
    if (isKnown(item)) undo(item);
  },
};

/** Shows every waiting write of the viewer on the cache again (answers read while they wait do not know them). */
export function showWaiting(): void {
  const qc = client;
  if (!qc) return;
  const uid = viewerNow()?.uid;
  for (const item of useOutbox.getState().items) {
    if (item.state !== 'waiting' || (uid !== undefined && item.uid !== uid) || !isKnown(item)) continue;
    showOne(qc, item);
  }
}

function showOne<K extends WriteKind>(qc: QueryClient, write: WriteOf<K>): void {
  registry[write.kind].show?.(qc, write);
}

/**
 * A write stored by an earlier version of the app, as this one makes it: one kind of like for
 * posts and comments, and one of follow for users, then.
 */
export function upgradeStored(item: QueuedWrite): QueuedWrite {
  const data: unknown = item.data;
  if (typeof data !== 'object' || data === null) return item;
  if (item.kind === 'follow' && 'user_id' in data && 'on' in data) return { ...item, kind: 'userFollow', data: { user_id: data.user_id, on: data.on } };
  if (item.kind === 'like' && 'target' in data && 'like' in data && typeof data.target === 'object' && data.target !== null) {
    const { target, like } = data;
    if ('post_id' in target) return { ...item, kind: 'postLike', data: { post_id: target.post_id, on: like } };
    if ('comment_id' in target) return { ...item, kind: 'commentLike', data: { comment_id: target.comment_id, on: like } };
  }
  return item;
}

/** The roots of the query keys whose answers waiting writes change. */
const shownByWrites = new Set<unknown>([postKeys.all[0], userKeys.all[0], commentKeys.all[0], channelKeys.all[0]]);

function watch(qc: QueryClient): () => void {
  const known = viewerNow();
  useOutbox.setState({ viewer: known === undefined ? undefined : (known?.uid ?? null) });
  return qc.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [root, part] = event.query.queryKey;
    // A login (or the session read again): what waited for it goes now.
    if (root === sessionKeys.all[0] && part === sessionKeys.user[1]) {
      const user = viewerNow() ?? null;
      useOutbox.setState({ viewer: user?.uid ?? null });
      // What someone else kept for their next login here goes at a login of anyone else.
      if (user) void discard((item) => item.uid !== user.uid).then(drain);
      return;
    }
    // Answers from the server (not our own changes) about what writes change.
    if (!event.action.manual && shownByWrites.has(root)) showWaiting();
  });
}

/** Starts the outbox on this query client (once; again for another client, as in tests). */
export function startWrites(qc: QueryClient, texts: WriteNotices): void {
  notices = texts;
  if (client === qc) return;
  stopWatching?.();
  client = qc;
  stopWatching = watch(qc);
  void startQueue({
    handler,
    viewer,
    message: errorText,
    // What waited from the last visit shows on the restored cache at once.
    loaded: showWaiting,
    tell: (message) => toast.warning(message),
    // The app's word counts too: a server that was unreachable while the browser thought it was online.
    onReconnect: (listener) =>
      void useOnlineStore.subscribe((state, before) => {
        if (state.online && !before.online) listener();
      }),
    upgrade: upgradeStored,
    waitingForNetwork: askBackgroundSync,
    synced: () => void sayWhatTheWorkerSent(),
  });
  void sayWhatTheWorkerSent();
}

/**
 * What the service worker sent while no tab was open (or while this one could not): said and
 * shown as if this page had sent it after its screen moved on.
 */
async function sayWhatTheWorkerSent(): Promise<void> {
  for (const outcome of await takeSyncOutcomes()) {
    const write = upgradeStored(outcome.write);
    if (!isKnown(write)) continue;
    if (outcome.sent) sent(write, outcome.answer as WriteAnswer<typeof write.kind>, false);
    else refused(write, new ApiError({ ...outcome.error, kind: 'business', path: write.wire?.path ?? '' }), false);
  }
}

function loggedIn(): LoginUser {
  const user = viewerNow();
  if (!user) throw new Error('Writing needs a login');
  return user;
}

/**
 * Makes a write of `kind` as the logged-in user: shown at once, then sent now or when it can.
 * `id` is its client_id when the screen keeps one (a draft's, a form's), so a retry is the same write.
 */
export function write<K extends WriteKind>(kind: K, input: WriteInput<K>, id: string = newClientId()): Promise<Outcome> {
  const qc = queryClient();
  const me = loggedIn();
  const definition = registry[kind];
  const made = definition.make(qc, input, me);
  if (!made) return Promise.resolve({ status: 'dropped' });
  const notice = noticesOf()[kind];
  const item: WriteOf<K> = {
    id,
    at: madeAt(),
    uid: me.uid,
    kind,
    label: notice.label(made.data),
    text: excerpt(made.about),
    edit: notice.editor?.(made.data),
    toggle: made.toggle,
    replaces: made.replaces,
    state: 'waiting',
    data: made.data,
  };
  item.wire = wireOf(item);
  definition.show?.(qc, item);
  return submit(item);
}

/** The writes of user `uid` not made yet: waiting, or back for their editor. */
export async function unsentOf(uid: number): Promise<QueuedWrite[]> {
  return (await readQueue()).filter((item) => item.uid === uid);
}

/** User `uid` lets their unsent writes go (as they log out): nothing of theirs is sent or kept. */
export const discardWritesOf = (uid: number): Promise<void> => discard((item) => item.uid === uid);
