/**
 * The replies of a comment past the three comment/list carries: 共 N 条回复 is a button that
 * opens them (comment/replies, paged, with its loading and failed states), and one's own reply
 * shows under its comment while it waits and once sent, before any list is read again.
 */
import { QueryClient } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Comment, CommentBase, LoginUser } from '../../src/shared/schemas.ts';
import { CommentList } from '../../src/client/features/post/components/CommentList.tsx';
import { useReplyThreads } from '../../src/client/features/post/reply-threads.ts';
import { commentsQueryOptions, repliesQueryOptions } from '../../src/client/entities/comment/queries.ts';
import { comment as commentWrite } from '../../src/client/entities/comment/writes.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import { useOutbox } from '../../src/client/lib/write-queue/store.ts';
import { makeComment, makePost } from './fixtures.ts';
import { renderWithProviders } from './render-in-app.tsx';

const POST_ID = 7;
const ME: LoginUser = { uid: 1, ucode: 'ME', nick: '我', avatar: '', cellphone: '138****0000', ctime: 0, student: 0, usertype: 1 };
const someone = { uid: 2, ucode: 'U2', nick: '评论者', avatar: '', is_follow: false };

const reply = (id: number): CommentBase => {
  const { reply_count: _count, replies: _replies, ...base } = makeComment(id, { post_id: POST_ID, user: someone, content: `第 ${id} 条回复`, reply_user: someone });
  return base;
};
const root = (replyCount: number): Comment =>
  makeComment(11, {
    post_id: POST_ID,
    user: someone,
    content: '楼主的评论',
    reply_count: replyCount,
    replies: Array.from({ length: Math.min(3, replyCount) }, (_, i) => reply(101 + i)),
  });

const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, data }), { headers: { 'content-type': 'application/json' } });

/** comment/list with `listed`; comment/replies with replies 101.. (`total` of them, in pages), after `fail` failures; the user `me`. */
function stubServer(listed: Comment, total: number, answers: { fail?: number; me?: LoginUser } = {}) {
  let failures = answers.fail ?? 0;
  const asked: Record<string, unknown>[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, number>) : {};
    if (path === '/serv/v1/comment/list') return envelope({ list: [listed], page: { more: false, next_index: listed.id } });
    if (path === '/serv/v1/comment/replies') {
      asked.push(body);
      if (failures-- > 0) return new Response('', { status: 503 });
      const all = Array.from({ length: total }, (_, i) => reply(101 + i)).filter((r) => r.id > (body.index ?? 0));
      const list = all.slice(0, body.size ?? 20);
      return envelope({ list, page: { more: all.length > list.length, next_index: list.at(-1)?.id ?? 0 } });
    }
    if (path === '/serv/v1/post/detail') return envelope(makePost(POST_ID));
    if (path === '/serv/v1/user/auth' && answers.me) return envelope(answers.me);
    return new Response(JSON.stringify({ code: -1, error: { code: -2000, msg: '请先登录' } }), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { asked };
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });

// jsdom lays nothing out and has no scrollIntoView.
const scrolledIntoView = vi.fn();
Object.defineProperty(Element.prototype, 'scrollIntoView', { value: scrolledIntoView, configurable: true, writable: true });

beforeEach(() => {
  sessionStorage.clear();
  useReplyThreads.setState({ opened: {} });
  useOutbox.setState({ items: [] });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('opens the replies past the first three from 共 N 条回复, in pages, with a retry when the read fails', async () => {
  const { asked } = stubServer(root(25), 25, { fail: 1 });
  renderWithProviders(<CommentList postId={POST_ID} total={26} postAuthorUid={3} onReply={() => {}} />, { queryClient: newClient() });
  const toggle = await screen.findByRole('button', { name: '共 25 条回复' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(screen.getByText('第 103 条回复')).toBeTruthy();
  expect(screen.queryByText('第 104 条回复')).toBeNull();

  fireEvent.click(toggle);
  expect((await screen.findByRole('status')).textContent).toContain('回复加载中');
  const failed = await screen.findByRole('alert');
  expect(failed.textContent).toContain('回复加载失败');
  fireEvent.click(within(failed).getByRole('button', { name: '重试' }));

  await screen.findByText('第 120 条回复');
  expect(screen.queryByText('第 121 条回复')).toBeNull();
  const close = screen.getByRole('button', { name: '收起回复' });
  expect(close.getAttribute('aria-expanded')).toBe('true');
  expect(document.getElementById(close.getAttribute('aria-controls')!)?.querySelectorAll('.comment--reply')).toHaveLength(20);

  fireEvent.click(screen.getByRole('button', { name: '加载更多回复' }));
  await screen.findByText('第 125 条回复');
  await waitFor(() => expect(screen.queryByRole('button', { name: '加载更多回复' })).toBeNull());
  expect(asked.map(({ comment_id, index }) => [comment_id, index])).toEqual([
    [11, 0],
    [11, 0],
    [11, 120],
  ]);

  fireEvent.click(close);
  const closed = await screen.findByRole('button', { name: '共 25 条回复' });
  expect(closed.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByText('第 104 条回复')).toBeNull();
  // The list above it shrank: the button is brought back in sight.
  await waitFor(() => expect(scrolledIntoView.mock.contexts).toContain(closed));
});

it("shows one's own reply past the first three under its comment while it waits, and once sent before any list is read again", async () => {
  stubServer(root(3), 3, { me: ME });
  const queryClient = newClient();
  queryClient.setQueryData(sessionKeys.user, ME);
  await queryClient.prefetchInfiniteQuery(commentsQueryOptions(POST_ID));

  // Made as the outbox makes it: its comment, as the cache shows the reply it answers.
  const input = { body: { post_id: POST_ID, content: '我的回答', reply_id: 103 }, replyTo: '评论者' };
  const made = commentWrite.make(queryClient, input, ME)!;
  expect(made.data.rootId).toBe(11);
  const write = { id: 'client-0000001', at: 1, uid: ME.uid, kind: 'comment' as const, label: '回复', text: '我的回答', state: 'waiting' as const, data: made.data };
  useOutbox.setState({ items: [write] });
  useReplyThreads.getState().open(POST_ID, 11);

  renderWithProviders(<CommentList postId={POST_ID} total={4} postAuthorUid={3} onReply={() => {}} />, { queryClient });
  const item = (await screen.findByText('楼主的评论')).closest('.comment-item') as HTMLElement;
  await waitFor(() => expect(within(item).getByRole('list', { name: '待发送的评论' }).textContent).toContain('我的回答'));

  // Sent: out of the outbox, and the answer under the comment at once.
  const answer = makeComment(204, { post_id: POST_ID, content: '我的回答', user: { ...someone, uid: ME.uid, nick: ME.nick }, reply_user: someone });
  await waitFor(() => expect(queryClient.getQueryData(repliesQueryOptions(POST_ID, 11).queryKey)).toBeDefined());
  const settled = commentWrite.settle!(queryClient, write, answer);
  useOutbox.setState({ items: [] });
  await waitFor(() => expect(within(item).queryByRole('list', { name: '待发送的评论' })).toBeNull());
  expect(within(item).getByText('我的回答').closest('.comment-replies__list')).not.toBeNull();
  const listed = queryClient.getQueryData(commentsQueryOptions(POST_ID).queryKey);
  expect(listed?.pages[0]?.list[0]).toMatchObject({ reply_count: 4, replies: [{ id: 101 }, { id: 102 }, { id: 103 }] });
  expect(await settled).toEqual([{ type: 'updateCommentNumber', post_id: POST_ID, comment_count: makePost(POST_ID).comment_count }]);
});
