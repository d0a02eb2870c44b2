/**
 * The outbox's rules, as pure functions (tests/unit/outbox-rules.test.ts): the send order, what
 * a new write does to the writes already waiting, which write goes next, and what a failure
 * means for the queue.
 */
import { ErrorCode } from '#shared/errors.ts';
import { bySendOrder } from '#shared/outbox-sync.ts';
import { isApiError } from '../http.ts';
import type { QueuedWrite } from './store.ts';

export { bySendOrder };

export interface EnqueuePlan {
  /** The write to store (the new one, or a waiting one it merged into); null: nothing to send. */
  put: QueuedWrite | null;
  /** Waiting writes it replaces or cancels. */
  remove: QueuedWrite[];
}

/**
 * What a new write does to the queue. A switch (like, follow) merges into the waiting write for
 * the same target, keeping its place and the server's state before it; if the merge gives back
 * that state (liked, then unliked, offline) both go, and nothing is sent. A write that replaces
 * (a poll's vote) takes the place of the waiting one. The write on its way (`sendingId`) is
 * never touched: the new one queues behind it.
 */
export function planEnqueue(items: readonly QueuedWrite[], incoming: QueuedWrite, sendingId: string | null): EnqueuePlan {
  const waiting = items.filter((item) => item.state === 'waiting' && item.id !== sendingId && item.uid === incoming.uid);
  const { toggle } = incoming;
  if (toggle) {
    const earlier = waiting.find((item) => item.toggle?.target === toggle.target && !item.tried);
    if (!earlier?.toggle) return { put: incoming, remove: [] };
    if (toggle.on === earlier.toggle.before) return { put: null, remove: [earlier] };
    // What is put back if it is refused or taken back: the state before the first of them.
    const merged: QueuedWrite = { ...incoming, id: earlier.id, at: earlier.at, toggle: { ...toggle, before: earlier.toggle.before } };
    return { put: merged, remove: [] };
  }
  if (incoming.replaces) {
    return { put: incoming, remove: waiting.filter((item) => item.replaces === incoming.replaces) };
  }
  return { put: incoming, remove: [] };
}

/** The next write to send for user `uid`: the oldest waiting one of theirs. Others' writes wait for their login. */
export function nextToSend(items: readonly QueuedWrite[], uid: number): QueuedWrite | undefined {
  return [...items].sort(bySendOrder).find((item) => item.state === 'waiting' && item.uid === uid);
}

/** Whether another write for the same switch target waits after `item` (then that one settles the state). */
export function laterToggle(items: readonly QueuedWrite[], item: QueuedWrite): boolean {
  return items.some((other) => other.id !== item.id && other.toggle !== undefined && other.toggle.target === item.toggle?.target);
}

/**
 * What a failed send means:
 * - offline: no answer (no network, a timeout): keep it, send again when the network is back;
 * - later: the server is unwell (an answer that is not ours) or asks us to slow down (-2005,
 *   in the background, where a long queue meets the per-minute limit): keep it, try again soon;
 * - login: the session ended (-2000, -1001, HTTP 452): keep the queue until the user logs in;
 * - refused: anything else the server said no to; the user decides (the write comes back).
 * Something that is not a request's answer (a bug) is refused too: its words come back, not lost.
 */
export type FailureKind = 'offline' | 'later' | 'login' | 'refused';

const sessionCodes: ReadonlySet<number> = new Set([ErrorCode.NotLoggedIn, ErrorCode.SessionInvalid]);

export function failureOf(error: unknown, foreground: boolean): FailureKind {
  if (!isApiError(error)) return 'refused';
  switch (error.kind) {
    case 'network':
    case 'timeout':
      return 'offline';
    case 'http':
      return 'later';
    case 'logged-in-elsewhere':
      return 'login';
    default:
      if (sessionCodes.has(error.code)) return 'login';
      // The user who just tapped sees the refusal; a queue sent in one go waits instead.
      if (error.code === ErrorCode.TooFrequent && !foreground) return 'later';
      return 'refused';
  }
}

/** Waits before trying again after the n-th failure in a row (n from 1): 5 s, 15 s, 45 s, ... at most 5 minutes. */
export function retryDelayMs(failures: number): number {
  return Math.min(5_000 * 3 ** Math.max(0, failures - 1), 300_000);
}
