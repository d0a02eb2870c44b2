/**
 * The service worker's Background Sync (sw/background-sync.ts) against the real server: its code
 * runs here on the outbox's IndexedDB store (fake-indexeddb, the same records a page stores), and
 * its fetches reach the app as a browser's would, with the cookie of the browser's login.
 *
 * - the waiting writes of whoever the cookie logs in go, in order, each once (a replay of one a
 *   page also sent is answered, not made again); another user's wait for their login;
 * - what it did waits beside the writes for the next open: sent with the answer, or refused with
 *   the server's code and message, a refused comment kept for its editor;
 * - it stops at a write only a page can send (pictures to upload), for a browser logged out, and
 *   after a logout made offline (the server ends the ticket first); with no network it fails,
 *   for the browser to fire the event again, and keeps every write.
 */
import 'fake-indexeddb/auto';
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { LOGOUT_PENDING_COOKIE, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { OUTBOX_DB, syncOutcomeKey, type SyncableWrite, type SyncOutcome, type WireCall } from '../../src/shared/outbox-sync.ts';
import { behaviourDatabases, newClientId, phoneSource, testAppFor } from '../support/api.ts';

vi.stubGlobal('self', { navigator: {}, addEventListener: () => undefined });
const { sendOutbox } = await import('../../sw/background-sync.ts');

const store: UseStore = createStore(OUTBOX_DB.database, OUTBOX_DB.store);
const nextPhone = phoneSource('1390077');
let at = 1;

/** A waiting write of `uid` as a page stores it: its call, or none when only a page can send it. */
function waiting(uid: number, wire: WireCall | undefined, extra: Partial<SyncableWrite> = {}): SyncableWrite {
  return { id: newClientId('sync'), at: at++, uid, state: 'waiting', wire, ...extra };
}
const put = (write: SyncableWrite) => set([write.at, write.id], write, store);
const comment = (postId: number, content: string): WireCall => ({ path: api.commentAdd.path, body: { post_id: postId, content }, whenRefused: 'return' });

async function stored(): Promise<{ writes: SyncableWrite[]; outcomes: Map<string, SyncOutcome> }> {
  const writes: SyncableWrite[] = [];
  const outcomes = new Map<string, SyncOutcome>();
  for (const [key, value] of await entries<IDBValidKey, SyncableWrite | SyncOutcome>(store)) {
    if (Array.isArray(key) && key[0] === syncOutcomeKey('')[0]) outcomes.set(String(key[1]), value as SyncOutcome);
    else writes.push(value as SyncableWrite);
  }
  return { writes, outcomes };
}

describe.each(behaviourDatabases)('Background Sync on $name', ({ open }) => {
  const ctx = testAppFor(open);
  let postId: number;
  /** The browser's cookies, as its fetches carry them (credentials: 'include'). */
  let cookies: Record<string, string> = {};
  let networkUp = true;

  beforeAll(async () => {
    postId = (await ctx.t.call<{ list: { id: number }[] }>(api.channelPosts, { tab: 'all', size: 1 })).data().list[0]!.id;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      if (!networkUp) throw new TypeError('Failed to fetch');
      const cookie = Object.entries(cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join('; ');
      const response = await ctx.t.app.inject({
        method: (init.method ?? 'GET') as 'GET' | 'POST',
        url,
        headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
        ...(init.body === undefined ? {} : { payload: String(init.body) }),
      });
      return new Response(response.body, { status: response.statusCode });
    });
  });
  afterEach(async () => {
    for (const [key] of await entries(store)) await del(key, store);
    cookies = {};
    networkUp = true;
  });

  const logInBrowser = async () => {
    const login = await ctx.t.login(nextPhone());
    cookies = { [TICKET_COOKIE]: login.ticket };
    return login;
  };
  const commentsSaying = async (content: string) =>
    (await ctx.t.call<{ list: { content: string }[] }>(api.commentList, { post_id: postId, size: 50 })).data().list.filter((c) => c.content === content);

  it("sends the logged-in user's waiting writes once, keeps what it did for the next open, and leaves another user's", async () => {
    const me = await logInBrowser();
    const other = await ctx.t.login(nextPhone());
    const first = waiting(me.uid, comment(postId, `后台发出的第一条 ${at}`));
    const like = waiting(me.uid, { path: api.likeAdd.path, body: { post_id: postId }, whenRefused: 'drop' }, { toggle: { target: `post:${postId}`, on: true, before: false } });
    const theirs = waiting(other.uid, comment(postId, `别人的评论 ${at}`));
    for (const write of [first, like, theirs]) await put(write);

    await sendOutbox();
    expect(await commentsSaying(String(first.wire!.body.content))).toHaveLength(1);
    const { writes, outcomes } = await stored();
    expect(writes.map((write) => write.id)).toEqual([theirs.id]);
    expect(outcomes.get(first.id)).toMatchObject({ sent: true, write: { id: first.id }, answer: { content: first.wire!.body.content } });
    expect(outcomes.get(like.id)).toMatchObject({ sent: true, write: { id: like.id }, answer: { like_count: expect.any(Number) } });

    // A page that also sent it (the answer lost) and the worker again: the server answers, it makes nothing twice.
    await put(first);
    await sendOutbox();
    expect(await commentsSaying(String(first.wire!.body.content))).toHaveLength(1);
    expect((await stored()).writes.map((write) => write.id)).toEqual([theirs.id]);
  });

  it("gives a refused comment back to its editor with the server's message, and lets a refused switch go", async () => {
    const me = await logInBrowser();
    const refusedComment = waiting(me.uid, comment(999_999_999, '评论一条不存在的动态'));
    const refusedLike = waiting(me.uid, { path: api.likeAdd.path, body: { post_id: 999_999_999 }, whenRefused: 'drop' });
    await put(refusedComment);
    await put(refusedLike);

    await sendOutbox();
    const { writes, outcomes } = await stored();
    expect(writes).toEqual([expect.objectContaining({ id: refusedComment.id, state: 'returned', error: expect.stringMatching(/[\u4e00-\u9fff]/) })]);
    expect(outcomes.get(refusedComment.id)).toMatchObject({ sent: false, error: { code: ErrorCode.NotFound } });
    expect(outcomes.get(refusedLike.id)).toMatchObject({ sent: false, error: { code: ErrorCode.NotFound } });
  });

  it('stops at a write only a page can send, sends nothing logged out or after a logout made offline, and fails without a network', async () => {
    const me = await logInBrowser();
    const withPictures = waiting(me.uid, undefined);
    const after = waiting(me.uid, comment(postId, `排在带图动态之后 ${at}`));
    await put(withPictures);
    await put(after);
    await sendOutbox();
    expect((await stored()).writes).toHaveLength(2);

    await del([withPictures.at, withPictures.id], store);
    networkUp = false;
    await expect(sendOutbox()).rejects.toThrow();
    expect((await stored()).writes).toHaveLength(1);
    networkUp = true;

    const ticket = cookies[TICKET_COOKIE]!;
    cookies = {};
    await sendOutbox();
    // The logout chosen offline: the worker's first call ends the ticket, and nothing goes with it.
    cookies = { [TICKET_COOKIE]: ticket, [LOGOUT_PENDING_COOKIE]: '1' };
    await sendOutbox();
    cookies = { [TICKET_COOKIE]: ticket };
    await sendOutbox();
    expect((await stored()).writes.map((write) => write.id)).toEqual([after.id]);
    expect(await commentsSaying(String(after.wire!.body.content))).toHaveLength(0);
  });
});
