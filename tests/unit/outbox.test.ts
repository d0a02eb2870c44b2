/**
 * The outbox's queue with its real senders, the query client and IndexedDB
 * (fake-indexeddb), against a stubbed server: writes are stored before they are sent, survive a
 * reload, go in the order they were made when the network is back, are retried with the same
 * client_id when an answer was lost, keep showing over answers read meanwhile, come back with the
 * message when refused, wait for the login when the session ended, and can be taken back. The
 * browser's part (reloads, closed tabs, the real server counting once) is tests/e2e/outbox.test.ts.
 */
import type { QueryClient } from '@tanstack/react-query';
import { del as idbDel, set as idbSet, values } from 'idb-keyval';
import { OUTBOX_CHANNEL, OUTBOX_SYNCED, syncOutcomeKey, type SyncOutcome } from '../../src/shared/outbox-sync.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginUser, Post } from '../../src/shared/schemas.ts';
import { applyAppEvents } from '../../src/client/app/apply-other-tabs.ts';
import { writeNotices } from '../../src/client/app/write-notices.ts';
import { outbox, setWriteNotices } from '../../src/client/entities/outbox/index.ts';
import { channelKeys } from '../../src/client/entities/channel/queries.ts';
import { cachedComment } from '../../src/client/entities/comment/cache.ts';
import { commentKeys } from '../../src/client/entities/comment/keys.ts';
import { noticeKeys } from '../../src/client/entities/notice/queries.ts';
import { cachedPost } from '../../src/client/entities/post/cache.ts';
import { feedQueryOptions } from '../../src/client/entities/post/queries.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import { readQueue } from '../../src/client/lib/write-queue/queue.ts';
import { useOnlineStore } from '../../src/client/platform/online-store.ts';
import { outboxDb, storedWriteCount, useOutbox, type QueuedWrite } from '../../src/client/lib/write-queue/store.ts';
import { createQueryClient } from '../../src/client/lib/query-client.ts';
import { useToastStore } from '../../src/client/ui/toast/toast-store.ts';
import { resetOutbox } from '../support/outbox.ts';
import { makeComment, makePost } from './fixtures.ts';

const ME: LoginUser = { uid: 1, ucode: 'ME', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 };

const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, data }), { headers: { 'content-type': 'application/json' } });
const refusal = (code: number, msg = '') =>
  new Response(JSON.stringify({ code: -1, error: { code, msg } }), { headers: { 'content-type': 'application/json' } });

interface Call {
  path: string;
  body: Record<string, unknown>;
}
type Answer = Response | 'offline' | 'answer-lost';

/** The browser says it has no network (the queue then tries nothing), and nothing would reach the server anyway. */
function offline() {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  return server(() => 'offline');
}

/** A stubbed server: `answer` decides per call; 'offline' never reaches it, 'answer-lost' reaches it but the answer does not come back. */
function server(answer: (call: Call) => Answer) {
  const calls: Call[] = [];
  const reached: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call = { path: new URL(String(input), 'http://localhost').pathname, body: init?.body ? JSON.parse(String(init.body)) : {} };
      calls.push(call);
      const result = answer(call);
      if (result === 'offline') throw new TypeError('Failed to fetch');
      reached.push(call);
      if (result === 'answer-lost') throw new TypeError('Failed to fetch');
      return result;
    }),
  );
  return { calls, reached, of: (path: string) => reached.filter((call) => call.path === path) };
}

const comment = (id: number, content: string) => makeComment(id, { content });

let queryClient: QueryClient;
let stopEvents: () => void;
let post: Post;

/** The browser's network is back. */
function comeOnline(): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  window.dispatchEvent(new Event('online'));
}

async function goOnline(): Promise<void> {
  comeOnline();
  await vi.waitFor(() => expect(useOutbox.getState().items.filter((item) => item.state === 'waiting')).toEqual([]));
}

beforeEach(async () => {
  setWriteNotices(async () => writeNotices);
  await resetOutbox();
  queryClient = createQueryClient({ onError: () => undefined });
  stopEvents = applyAppEvents(queryClient);
  queryClient.setQueryData(sessionKeys.user, ME);
  post = makePost(7, { like_count: 10, is_like: false, comment_count: 2 });
  queryClient.setQueryData(feedQueryOptions({ tab: 'all' }).queryKey, { pages: [{ list: [post], page: { more: false, next_index: 7 } }], pageParams: [0] });
});
afterEach(() => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  stopEvents();
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('the outbox', () => {
  it('stores a write made offline, brings it back after a reload, and sends it once with its client_id when the network is back', async () => {
    const api = offline();
    const writes = await outbox(queryClient);
    expect(await writes.write('comment', { body: { post_id: 7, content: '地铁上写的评论' } }, 'comment-offline-1')).toEqual({ status: 'queued' });
    expect(await storedWriteCount()).toBe(1);
    expect(((await values(outboxDb())) as QueuedWrite[]).map((item) => item.id)).toEqual(['comment-offline-1']);

    // A reload: nothing in memory, the store still has it.
    useOutbox.setState({ items: [] });
    expect((await readQueue()).map((item) => [item.id, item.state, item.text])).toEqual([['comment-offline-1', 'waiting', '地铁上写的评论']]);

    const online = server(({ path }) =>
      path === '/serv/v1/comment/add' ? envelope(comment(90, '地铁上写的评论')) : envelope({ ...post, comment_count: 3 }),
    );
    await goOnline();
    expect(online.of('/serv/v1/comment/add').map((call) => call.body)).toEqual([
      { post_id: 7, content: '地铁上写的评论', client_id: 'comment-offline-1' },
    ]);
    // The count everywhere follows.
    await vi.waitFor(() => expect(cachedPost(queryClient, 7)?.comment_count).toBe(3));
    expect(await storedWriteCount()).toBe(0);
    expect(api.reached).toEqual([]);
  });

  it('sends what waits in the order it was made, one at a time, even when made within one millisecond', async () => {
    offline();
    const writes = await outbox(queryClient);
    // One millisecond for all four: the order made is the only order there is.
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    await writes.write('postLike', { post_id: 7, on: true });
    await writes.write('comment', { body: { post_id: 7, content: '第一' } }, 'comment-order-1');
    await writes.write('userFollow', { user_id: 5, on: true });
    await writes.write('comment', { body: { post_id: 7, content: '第二' } }, 'comment-order-2');
    now.mockRestore();

    let inFlight = 0;
    let most = 0;
    const online = server(({ path }) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      inFlight -= 1;
      if (path === '/serv/v1/likes/add') return envelope({ is_success: true, like_count: 11 });
      if (path === '/serv/v1/follower/follower_user') return envelope({ is_follow: true });
      if (path === '/serv/v1/comment/add') return envelope(comment(91, 'x'));
      return envelope(post);
    });
    await goOnline();
    expect(online.reached.map((call) => call.path).filter((path) => path !== '/serv/v1/post/detail')).toEqual([
      '/serv/v1/likes/add',
      '/serv/v1/comment/add',
      '/serv/v1/follower/follower_user',
      '/serv/v1/comment/add',
    ]);
    expect(online.of('/serv/v1/comment/add').map((call) => call.body.content)).toEqual(['第一', '第二']);
    expect(most).toBe(1);
  });

  it('retries a write whose answer was lost with the same client_id', async () => {
    let first = true;
    const api = server(({ path }) => {
      if (path !== '/serv/v1/comment/add') return envelope(post);
      if (first) {
        first = false;
        return 'answer-lost';
      }
      return envelope(comment(92, '答复丢了'));
    });
    const writes = await outbox(queryClient);
    expect(await writes.write('comment', { body: { post_id: 7, content: '答复丢了' } }, 'comment-lost-1')).toEqual({ status: 'queued' });
    await goOnline();
    expect(api.of('/serv/v1/comment/add').map((call) => call.body.client_id)).toEqual(['comment-lost-1', 'comment-lost-1']);
  });

  it('keeps a waiting like lit over answers read meanwhile, and the heart settles with the answer', async () => {
    const api = server(({ path }) =>
      path === '/serv/v1/channel/posts' ? envelope({ list: [post], page: { more: false, next_index: 7 } }) : 'offline',
    );
    const writes = await outbox(queryClient);
    await writes.write('postLike', { post_id: 7, on: true });
    expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: true, like_count: 11 });
    // The feed read again (the service worker's copy offline, say) does not know the like yet.
    await queryClient.fetchInfiniteQuery({ ...feedQueryOptions({ tab: 'all' }), staleTime: 0 });
    expect(api.of('/serv/v1/channel/posts')).toHaveLength(1);
    expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: true, like_count: 11 });

    server(() => envelope({ is_success: true, like_count: 12 }));
    await goOnline();
    await vi.waitFor(() => expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: true, like_count: 12 }));
  });

  it('sends nothing for a like undone before it went, and puts the heart back when a like is taken back', async () => {
    const api = offline();
    const writes = await outbox(queryClient);
    await writes.write('postLike', { post_id: 7, on: true });
    await writes.write('postLike', { post_id: 7, on: false });
    expect(useOutbox.getState().items).toEqual([]);
    expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: false, like_count: 10 });

    await writes.write('postLike', { post_id: 7, on: true });
    const [item] = useOutbox.getState().items;
    expect(await writes.cancel(item!.id)).toBe(true);
    expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: false, like_count: 10 });
    expect(await storedWriteCount()).toBe(0);
    expect(api.reached).toEqual([]);
  });

  it('gives a refused complaint back with the message, for its form to take (-2902)', async () => {
    offline();
    const writes = await outbox(queryClient);
    const words = '很'.repeat(501);
    await writes.write('complain', { body: { target_type: 'post', target_id: 7, reason: 'spam', content: words } }, 'complain-long-1');
    server(() => refusal(-2902, 'content too long'));
    await goOnline();
    const [back] = useOutbox.getState().items;
    expect(back).toMatchObject({ id: 'complain-long-1', state: 'returned', error: '反馈内容请不要超过 500 字', label: '投诉' });
    expect(back?.edit).toBe('/complain?type=post&id=7');
    // Still there after a reload, until the form takes it.
    useOutbox.setState({ items: [] });
    expect((await readQueue())[0]?.state).toBe('returned');
    const taken = await writes.takeReturned((item) => item.kind === 'complain');
    expect(taken?.data).toEqual({ body: { target_type: 'post', target_id: 7, reason: 'spam', content: words } });
    expect(await storedWriteCount()).toBe(0);
  });

  it('gives a suspended user’s queued comment back with the suspension’s end, never dropping it silently (-1014)', async () => {
    offline();
    const writes = await outbox(queryClient);
    await writes.write('comment', { body: { post_id: 7, content: '禁言期间写的评论' } }, 'comment-suspended-1');
    const answered = server(() => refusal(-1014, '账号已被禁言，至 2026-12-06 12:00 解除'));
    await goOnline();
    expect(answered.of('/serv/v1/comment/add')).toHaveLength(1);
    expect(useOutbox.getState().items).toMatchObject([{ id: 'comment-suspended-1', state: 'returned', error: '账号已被禁言，至 2026-12-06 12:00 解除' }]);
    expect((await readQueue())[0]).toMatchObject({ state: 'returned', data: { body: { content: '禁言期间写的评论' } } });
  });

  it('puts back a like the server refuses later (a deleted post), and lets it go', async () => {
    offline();
    const writes = await outbox(queryClient);
    await writes.write('postLike', { post_id: 7, on: true });
    server(() => refusal(-1005, '动态不存在'));
    await goOnline();
    await vi.waitFor(() => expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: false, like_count: 10 }));
    expect(await storedWriteCount()).toBe(0);
  });

  it('keeps the queue when the session has ended, and sends it after the login', async () => {
    offline();
    const writes = await outbox(queryClient);
    await writes.write('comment', { body: { post_id: 7, content: '会话过期' } }, 'comment-session-1');
    const ended = server(() => refusal(-2000, '请登录'));
    comeOnline();
    await vi.waitFor(() => expect(ended.of('/serv/v1/comment/add')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(useOutbox.getState().items.map((item) => [item.id, item.state])).toEqual([['comment-session-1', 'waiting']]);

    // Logged out meanwhile: nothing is sent.
    const loggedOut = server(() => envelope(comment(93, '会话过期')));
    queryClient.setQueryData(sessionKeys.user, null);
    comeOnline();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loggedOut.reached).toEqual([]);

    // The login: what waited goes.
    queryClient.setQueryData(sessionKeys.user, ME);
    await vi.waitFor(() => expect(loggedOut.of('/serv/v1/comment/add').map((call) => call.body.client_id)).toEqual(['comment-session-1']));
  });

  it('sends only the logged-in user’s writes; another user’s wait for them', async () => {
    const theirs: QueuedWrite = {
      id: 'comment-of-user-2',
      at: 1,
      uid: 2,
      kind: 'comment',
      label: '评论',
      text: '别人的',
      state: 'waiting',
      data: { body: { post_id: 7, content: '别人的' }, author: { uid: 2, nick: '别人', avatar: '' } },
    };
    await idbSet([theirs.at, theirs.id], theirs, outboxDb());
    const api = server(() => envelope(comment(94, 'x')));
    const writes = await outbox(queryClient);
    await writes.write('comment', { body: { post_id: 7, content: '我的' } }, 'comment-of-user-1');
    await vi.waitFor(() => expect(api.of('/serv/v1/comment/add').map((call) => call.body.client_id)).toEqual(['comment-of-user-1']));
    expect((await readQueue()).map((item) => item.id)).toEqual(['comment-of-user-2']);
  });

  it('does not send a failing write again at each flap of the app’s online signal (one call failing while the others pass)', async () => {
    const api = server(({ path }) => (path === '/serv/v1/comment/add' ? 'answer-lost' : envelope(post)));
    const writes = await outbox(queryClient);
    expect(await writes.write('comment', { body: { post_id: 7, content: '被拦下的评论' } }, 'comment-flap-1')).toEqual({ status: 'queued' });
    expect(api.of('/serv/v1/comment/add')).toHaveLength(1);
    // The service worker reports each failed and each passing call: offline, online, offline, ...
    for (let flap = 0; flap < 5; flap += 1) {
      useOnlineStore.getState().setOnline(false);
      useOnlineStore.getState().setOnline(true);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.of('/serv/v1/comment/add')).toHaveLength(1);
    expect(useOutbox.getState().items.map((item) => item.id)).toEqual(['comment-flap-1']);
  });

  it('hears another tab that queued a write', async () => {
    offline();
    await outbox(queryClient);
    const other: QueuedWrite = { id: 'other-tab-1', at: 2, uid: 1, kind: 'comment', label: '评论', text: '另一个标签页', state: 'returned', data: {} };
    await idbSet([other.at, other.id], other, outboxDb());
    const tab = new BroadcastChannel('horde:outbox');
    tab.postMessage('changed');
    await vi.waitFor(() => expect(useOutbox.getState().items.map((item) => item.id)).toEqual(['other-tab-1']));
    tab.close();
  });
});

describe('switches in the outbox', () => {
  it('count a vote made offline at once, then show the poll the server answers', async () => {
    const vote = { vote_id: 3, title: '用哪个', multiple: false, end_time: null, total: 4, is_voted: false, options: [
      { option_id: 31, text: 'A', count: 3, is_voted: false },
      { option_id: 32, text: 'B', count: 1, is_voted: false },
    ] };
    queryClient.setQueryData(feedQueryOptions({ tab: 'all' }).queryKey, { pages: [{ list: [{ ...post, vote }], page: { more: false, next_index: 7 } }], pageParams: [0] });
    offline();
    const writes = await outbox(queryClient);
    expect(await writes.write('vote', { post_id: 7, option_ids: [32] })).toEqual({ status: 'queued' });
    expect(cachedPost(queryClient, 7)?.vote).toMatchObject({ is_voted: true, total: 5, options: [{ count: 3 }, { count: 2, is_voted: true }] });

    const answered = { ...vote, total: 9, is_voted: true, options: [vote.options[0]!, { ...vote.options[1]!, count: 6, is_voted: true }] };
    const online = server(() => envelope(answered));
    await goOnline();
    expect(online.of('/serv/v1/vote/submit')[0]?.body).toMatchObject({ post_id: 7, option_ids: [32] });
    await vi.waitFor(() => expect(cachedPost(queryClient, 7)?.vote?.total).toBe(9));
  });

  it('show a follow made offline at once, and send nothing for one undone before it went', async () => {
    const api = offline();
    const author = post.user;
    const writes = await outbox(queryClient);
    await writes.write('userFollow', { user_id: author.uid, on: true });
    expect(cachedPost(queryClient, 7)?.user.is_follow).toBe(true);
    expect(useOutbox.getState().items.map((item) => [item.label, item.text])).toEqual([['关注', post.user.nick]]);
    await writes.write('userFollow', { user_id: author.uid, on: false });
    expect(cachedPost(queryClient, 7)?.user.is_follow).toBe(false);
    expect(useOutbox.getState().items).toEqual([]);
    expect(api.reached).toEqual([]);
  });
});

describe('every write through the one path', () => {
  const channel = { channel_id: 4, channel_name: '前端之巅' };

  it('queues a channel follow with its client_id, shows it at once in the followed list, and sends it once', async () => {
    queryClient.setQueryData(channelKeys.followed(ME.uid), []);
    offline();
    const writes = await outbox(queryClient);
    expect(await writes.write('channelFollow', { channel, on: true })).toEqual({ status: 'queued' });
    expect(queryClient.getQueryData(channelKeys.followed(ME.uid))).toEqual([channel]);
    expect(useOutbox.getState().items.map((item) => [item.kind, item.label, item.text])).toEqual([['channelFollow', '关注频道', '前端之巅']]);
    const [queued] = useOutbox.getState().items;

    const online = server(() => envelope({ is_follow: true }));
    await goOnline();
    const [call] = online.of('/serv/v1/follower/follower_channel');
    expect(call?.body).toEqual({ channel_id: 4, client_id: queued!.id });
    expect(online.of('/serv/v1/follower/follower_channel')).toHaveLength(1);
  });

  it('marks notices read offline at once, keeps only the latest look, and sends it once when the network is back', async () => {
    const notice = (id: number) => ({
      id, type: 'comment' as const, actors: [], actor_count: 1, post_id: 7, comment_id: id, target_excerpt: '', content_excerpt: '',
      route: `/message/detail/7?comment=${id}`, unread: true, update_time: 1_700_000_000_000 + id,
    });
    queryClient.setQueryData(noticeKeys.unread(ME.uid), 3);
    queryClient.setQueryData(noticeKeys.list(ME.uid, 'all'), { pages: [{ list: [notice(3), notice(2), notice(1)], page: { more: false, next_index: 0 } }], pageParams: [0] });
    offline();
    const writes = await outbox(queryClient);
    expect(await writes.write('noticeRead', { up_to_id: 2 })).toEqual({ status: 'queued' });
    expect(queryClient.getQueryData(noticeKeys.unread(ME.uid))).toBe(1);
    expect(await writes.write('noticeRead', { up_to_id: 3 })).toEqual({ status: 'queued' });
    expect(queryClient.getQueryData(noticeKeys.unread(ME.uid))).toBe(0);
    expect(useOutbox.getState().items.map((item) => [item.kind, item.label])).toEqual([['noticeRead', '消息已读']]);
    const [queued] = useOutbox.getState().items;

    const online = server(() => envelope({ count: 0 }));
    await goOnline();
    expect(online.of('/serv/v1/notice/read').map((call) => call.body)).toEqual([{ up_to_id: 3, client_id: queued!.id }]);
    // Nothing unread is left to mark: a further look sends nothing.
    expect(await writes.write('noticeRead', { up_to_id: 3 })).toEqual({ status: 'dropped' });
  });

  it('switches a kind of notice off at once and sends it once; refused, the switch goes back', async () => {
    queryClient.setQueryData(noticeKeys.settings(ME.uid), { comment: true, like: true, follow: true });
    offline();
    const writes = await outbox(queryClient);
    await writes.write('noticeSetting', { kind: 'like', on: false });
    expect(queryClient.getQueryData(noticeKeys.settings(ME.uid))).toEqual({ comment: true, like: false, follow: true });
    const [queued] = useOutbox.getState().items;
    const online = server(() => envelope({ comment: true, like: false, follow: true }));
    await goOnline();
    expect(online.of('/serv/v1/notice/settings').map((call) => call.body)).toEqual([{ like: false, client_id: queued!.id }]);

    offline();
    await writes.write('noticeSetting', { kind: 'follow', on: false });
    server(() => refusal(-1005, '用户不存在'));
    await goOnline();
    expect(queryClient.getQueryData(noticeKeys.settings(ME.uid))).toEqual({ comment: true, like: false, follow: true });
  });

  it('puts a refused channel follow back', async () => {
    queryClient.setQueryData(channelKeys.followed(ME.uid), []);
    offline();
    const writes = await outbox(queryClient);
    await writes.write('channelFollow', { channel, on: true });
    server(() => refusal(-1005, '频道不存在'));
    await goOnline();
    expect(queryClient.getQueryData(channelKeys.followed(ME.uid))).toEqual([]);
  });

  it('takes a deleted post out of every list at once, and deletes it once with a client_id when the network is back', async () => {
    offline();
    const writes = await outbox(queryClient);
    expect(await writes.write('postDelete', { post_id: 7 })).toEqual({ status: 'queued' });
    expect(cachedPost(queryClient, 7)).toBeUndefined();
    const online = server(() => envelope({ post_id: 7 }));
    await goOnline();
    expect(online.of('/serv/v1/post/delete').map((call) => call.body)).toEqual([{ post_id: 7, client_id: expect.any(String) }]);
    expect(cachedPost(queryClient, 7)).toBeUndefined();
  });

  it('likes a comment at once and settles its count with the answer; a comment delete shows at once and reads the count again', async () => {
    queryClient.setQueryData(commentKeys.post(7), { pages: [{ list: [makeComment(50, { like_count: 1, is_like: false })], page: { more: false, next_index: 50 } }], pageParams: [0] });
    offline();
    const writes = await outbox(queryClient);
    await writes.write('commentLike', { comment_id: 50, on: true });
    expect(cachedComment(queryClient, 50)).toMatchObject({ is_like: true, like_count: 2 });
    await writes.write('commentDelete', { comment_id: 50, post_id: 7 });
    expect(cachedComment(queryClient, 50)).toBeUndefined();

    const online = server(({ path }) =>
      path === '/serv/v1/likes/add'
        ? envelope({ is_success: true, like_count: 5 })
        : path === '/serv/v1/comment/delete'
          ? envelope({ comment_id: 50 })
          : path === '/serv/v1/comment/list'
            ? envelope({ list: [], page: { more: false, next_index: 0 } })
            : envelope({ ...post, comment_count: 1 }),
    );
    await goOnline();
    expect(online.reached.map((call) => call.path).slice(0, 2)).toEqual(['/serv/v1/likes/add', '/serv/v1/comment/delete']);
    expect(online.of('/serv/v1/likes/add')[0]?.body).toMatchObject({ comment_id: 50, client_id: expect.any(String) });
    await vi.waitFor(() => expect(cachedPost(queryClient, 7)?.comment_count).toBe(1));
  });

  it('applies an answer to this tab’s cache directly and tells only the other tabs', async () => {
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel('horde:app-events');
    otherTab.addEventListener('message', (event) => heard.push(event.data));
    server(() => envelope({ is_success: true, like_count: 42 }));
    const writes = await outbox(queryClient);
    expect(await writes.write('postLike', { post_id: 7, on: true })).toEqual({ status: 'sent' });
    expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: true, like_count: 42 });
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'updateLikeStatus', post_id: 7, is_like: true, like_count: 42 }]));
    otherTab.close();
  });

  it('sends a switch again after one whose answer was lost, rather than merging the two (the server may have made the first)', async () => {
    let first = true;
    const api = server(({ path }) => {
      if (first && path === '/serv/v1/likes/add') {
        first = false;
        return 'answer-lost';
      }
      return envelope({ is_success: true, like_count: 10 });
    });
    const writes = await outbox(queryClient);
    expect(await writes.write('postLike', { post_id: 7, on: true })).toEqual({ status: 'queued' });
    offline();
    await writes.write('postLike', { post_id: 7, on: false });
    expect(useOutbox.getState().items.map((item) => item.kind)).toEqual(['postLike', 'postLike']);
    const online = server(() => envelope({ is_success: true, like_count: 10 }));
    await goOnline();
    expect([...api.reached, ...online.reached].map((call) => call.path)).toEqual(['/serv/v1/likes/add', '/serv/v1/likes/add', '/serv/v1/likes/cancel']);
  });

  it('sends the writes an earlier version stored (a like, a follow), as this version names them', async () => {
    const stored: QueuedWrite[] = [
      { id: 'old-like-1', at: 1, uid: 1, kind: 'like', label: '点赞', text: '', state: 'waiting', toggle: { target: 'post:7', on: true, before: false }, data: { target: { post_id: 7 }, like: true, undo: { is_like: false, like_count: 10 } } },
      { id: 'old-follow-1', at: 2, uid: 1, kind: 'follow', label: '关注', text: '', state: 'waiting', toggle: { target: 'user:5', on: true, before: false }, data: { user_id: 5, on: true, viewer: 1 } },
    ];
    for (const item of stored) await idbSet([item.at, item.id], item, outboxDb());
    const api = server(({ path }) => envelope(path === '/serv/v1/likes/add' ? { is_success: true, like_count: 11 } : { is_follow: true }));
    await outbox(queryClient);
    await vi.waitFor(() => expect(api.reached).toHaveLength(2));
    expect(api.reached.map((call) => [call.path, call.body.client_id])).toEqual([
      ['/serv/v1/likes/add', 'old-like-1'],
      ['/serv/v1/follower/follower_user', 'old-follow-1'],
    ]);
  });
});

describe('what the service worker sends with every tab closed', () => {
  const stored = async () => (await values(outboxDb())) as QueuedWrite[];

  it('stores each write that is one call with that call, its client_id the write’s id', async () => {
    offline();
    const writes = await outbox(queryClient);
    await writes.write('comment', { body: { post_id: 7, content: '没有网络时写的评论' } }, 'comment-wire-1');
    await writes.write('postLike', { post_id: 7, on: true }, 'like-wire-1');
    expect(Object.fromEntries((await stored()).map((item) => [item.id, item.wire]))).toEqual({
      'comment-wire-1': { path: '/serv/v1/comment/add', body: { post_id: 7, content: '没有网络时写的评论', client_id: 'comment-wire-1' }, whenRefused: 'return' },
      'like-wire-1': { path: '/serv/v1/likes/add', body: { post_id: 7, client_id: 'like-wire-1' }, whenRefused: 'drop' },
    });
  });

  it('says at the next open what the worker sent, and puts back a like it had refused, in an open tab too', async () => {
    offline();
    const writes = await outbox(queryClient);
    await writes.write('comment', { body: { post_id: 7, content: '后台发出的评论' } }, 'comment-synced-1');
    await writes.write('postLike', { post_id: 7, on: true }, 'like-synced-1');
    expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: true, like_count: 11 });

    // The worker sends the comment, and the server refuses the like (the post was deleted meanwhile).
    const [sentComment, refusedLike] = (await stored()).sort((a, b) => a.at - b.at);
    const outcomes: SyncOutcome[] = [
      { write: sentComment!, sent: true, answer: comment(91, '后台发出的评论') },
      { write: refusedLike!, sent: false, error: { code: -1005, msg: '动态不存在', status: 200 } },
    ];
    for (const outcome of outcomes) {
      await idbDel([outcome.write.at, outcome.write.id], outboxDb());
      await idbSet(syncOutcomeKey(outcome.write.id), outcome, outboxDb());
    }
    expect(await storedWriteCount()).toBe(2);
    // The post read again once the comment is known to be made.
    server(() => envelope({ ...post, comment_count: 3 }));
    const worker = new BroadcastChannel(OUTBOX_CHANNEL);
    worker.postMessage(OUTBOX_SYNCED);
    worker.close();

    await vi.waitFor(() => expect(cachedPost(queryClient, 7)).toMatchObject({ is_like: false, like_count: 10 }));
    await vi.waitFor(() => expect(cachedPost(queryClient, 7)?.comment_count).toBe(3));
    expect(useToastStore.getState().current).toMatchObject({ type: 'error', message: '内容不存在或已被删除' });
    expect(await storedWriteCount()).toBe(0);
    expect(await readQueue()).toEqual([]);
  });
});
