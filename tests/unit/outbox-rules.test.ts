/**
 * The outbox's rules, as pure functions: the send order, what a new write does to the
 * waiting ones (switches merge or cancel out, a vote replaces the waiting one, the write on its
 * way is never touched), which write goes next, and what a failure means for the queue.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/lib/http.ts';
import { bySendOrder, failureOf, laterToggle, nextToSend, planEnqueue, retryDelayMs } from '../../src/client/lib/write-queue/rules.ts';
import { writesOf } from '../../src/client/lib/write-queue/store.ts';
import type { QueuedWrite } from '../../src/client/lib/write-queue/store.ts';

let seq = 0;
function write(fields: Partial<QueuedWrite> = {}): QueuedWrite {
  seq += 1;
  return { id: `w${seq}`, at: 1000 + seq, uid: 1, kind: 'comment', label: '评论', text: '', state: 'waiting', data: {}, ...fields };
}
const like = (target: string, on: boolean, before: boolean, fields: Partial<QueuedWrite> = {}) =>
  write({ kind: 'like', toggle: { target, on, before }, data: { like: on, undo: { is_like: before } }, ...fields });

const business = (code: number) => new ApiError({ code, msg: '', kind: 'business', status: 200, path: '/x' });

describe('the send order', () => {
  it('is the order the writes were made in; the id breaks a tie', () => {
    const a = write({ at: 5, id: 'b' });
    const b = write({ at: 5, id: 'a' });
    const c = write({ at: 1 });
    expect([a, b, c].sort(bySendOrder).map((w) => w.id)).toEqual([c.id, 'a', 'b']);
  });

  it('sends the oldest waiting write of the logged-in user, never a returned one or another user’s', () => {
    const returned = write({ at: 1, state: 'returned' });
    const someoneElse = write({ at: 2, uid: 2 });
    const mine = write({ at: 3 });
    const later = write({ at: 4 });
    expect(nextToSend([later, someoneElse, mine, returned], 1)).toBe(mine);
    expect(nextToSend([later, someoneElse, mine, returned], 2)).toBe(someoneElse);
    expect(nextToSend([returned], 1)).toBeUndefined();
  });
});

describe('a new write', () => {
  it('queues behind the others', () => {
    const waiting = [write()];
    const incoming = write();
    expect(planEnqueue(waiting, incoming, null)).toEqual({ put: incoming, remove: [] });
  });

  it('that undoes a waiting switch cancels both: liked and unliked offline sends nothing', () => {
    const liked = like('post:7', true, false);
    const plan = planEnqueue([liked], like('post:7', false, true), null);
    expect(plan).toEqual({ put: null, remove: [liked] });
  });

  it('merges into the waiting switch of the same target, keeping its place, its id and the server’s state (what a refusal puts back)', () => {
    // Two tabs, each sure of what it showed: the second write does not undo the first.
    const first = like('user:3', true, false, { kind: 'userFollow', data: { user_id: 3, on: true } });
    const second = like('user:3', true, true, { kind: 'userFollow', data: { user_id: 3, on: true } });
    const plan = planEnqueue([first], second, null);
    expect(plan.remove).toEqual([]);
    expect(plan.put).toMatchObject({ id: first.id, at: first.at, toggle: { target: 'user:3', on: true, before: false }, data: { user_id: 3, on: true } });
  });

  it('never merges into a switch sent once whose answer never came (the server may have made it): the new one queues behind', () => {
    const tried = like('post:7', true, false, { tried: true });
    const unlike = like('post:7', false, true);
    expect(planEnqueue([tried], unlike, null)).toEqual({ put: unlike, remove: [] });
  });

  it('never touches the write on its way: an unlike made while the like is sent queues behind it', () => {
    const sending = like('post:7', true, false);
    const unlike = like('post:7', false, true);
    expect(planEnqueue([sending], unlike, sending.id)).toEqual({ put: unlike, remove: [] });
  });

  it('leaves switches of other targets, and of other users, alone', () => {
    const other = like('post:8', true, false);
    const theirs = like('post:7', true, false, { uid: 2 });
    const mine = like('post:7', false, true);
    expect(planEnqueue([other, theirs], mine, null)).toEqual({ put: mine, remove: [] });
  });

  it('replaces the waiting vote of the same poll, not one on its way or of another poll', () => {
    const waiting = write({ kind: 'vote', replaces: 'vote:1' });
    const otherPoll = write({ kind: 'vote', replaces: 'vote:2' });
    const incoming = write({ kind: 'vote', replaces: 'vote:1' });
    expect(planEnqueue([waiting, otherPoll], incoming, null)).toEqual({ put: incoming, remove: [waiting] });
    expect(planEnqueue([waiting, otherPoll], incoming, waiting.id)).toEqual({ put: incoming, remove: [] });
  });

  it('knows when a later switch of the same target waits (then that one settles what shows)', () => {
    const sent = like('post:7', true, false);
    const later = like('post:7', false, true);
    expect(laterToggle([sent, later], sent)).toBe(true);
    expect(laterToggle([sent, like('post:8', true, false)], sent)).toBe(false);
  });
});

describe('a failed send', () => {
  const failure = (kind: ApiError['kind'], code = -10086) => new ApiError({ code, msg: '', kind, status: 0, path: '/x' });

  it('without an answer (no network, a timeout) waits for the network', () => {
    expect(failureOf(failure('network'), true)).toBe('offline');
    expect(failureOf(failure('timeout'), false)).toBe('offline');
  });

  it('with an answer that is not ours (a proxy, a 500) tries again later', () => {
    expect(failureOf(failure('http'), false)).toBe('later');
  });

  it('for an ended session (-2000, -1001, HTTP 452) waits for the login', () => {
    expect(failureOf(business(-2000), false)).toBe('login');
    expect(failureOf(business(-1001), true)).toBe('login');
    expect(failureOf(failure('logged-in-elsewhere', -3003), false)).toBe('login');
  });

  it('for -2005 is the user’s to see when they just tapped, and a pause for a queue sent in one go', () => {
    expect(failureOf(business(-2005), true)).toBe('refused');
    expect(failureOf(business(-2005), false)).toBe('later');
  });

  it('for anything else the server refused (validation, -2902, a deleted post) is refused; so is a bug', () => {
    for (const code of [-1004, -2902, -1005, -1008, -1009, -2006]) expect(failureOf(business(code), false)).toBe('refused');
    expect(failureOf(new TypeError('x is undefined'), false)).toBe('refused');
  });

  it('waits 5 s, then 15 s, 45 s, ... at most 5 minutes before the next try', () => {
    expect([1, 2, 3, 4, 5, 9].map(retryDelayMs)).toEqual([5_000, 15_000, 45_000, 135_000, 300_000, 300_000]);
  });
});

describe('what a viewer sees', () => {
  it('is their own writes only: none for a visitor, nor while it is not known who is logged in', () => {
    const mine = write({ uid: 1 });
    const theirs = write({ uid: 2 });
    expect(writesOf([mine, theirs], 1)).toEqual([mine]);
    expect(writesOf([mine, theirs], null)).toEqual([]);
    expect(writesOf([mine, theirs], undefined)).toEqual([]);
  });
});
