/**
 * The client side of taking part, against a stubbed server: a like shows at once, the latest
 * request settles it, a refusal rolls it back through the error hook, and logged out it
 * follows the login; comment drafts keep their client_id; the broadcast events reach other tabs.
 */
import { QueryClientProvider, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginUser, Post } from '../../src/shared/schemas.ts';
import { feedQueryOptions } from '../../src/client/entities/post/queries.ts';
import { setLoginOpener } from '../../src/client/entities/session/login.ts';
import { sessionKeys, sessionQueryOptions } from '../../src/client/entities/session/queries.ts';
import { applyLogin } from '../../src/client/entities/session/session-cache.ts';
import { LikeButton } from '../../src/client/features/feed/components/LikeButton.tsx';
import { draftKey, useCommentDrafts } from '../../src/client/features/post/comment-drafts.ts';
import { hearOtherTabs, tellOtherTabs } from '../../src/client/lib/app-events.ts';
import { createQueryClient, type ErrorMeta } from '../../src/client/lib/query-client.ts';
import { applyAppEvents } from '../../src/client/app/apply-other-tabs.ts';
import { makePost } from './fixtures.ts';

const ME: LoginUser = { uid: 1, ucode: 'ME', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 };

function envelope(data: unknown): Response {
  return new Response(JSON.stringify({ code: 0, data }), { headers: { 'content-type': 'application/json' } });
}
function refusal(code: number, msg: string): Response {
  return new Response(JSON.stringify({ code: -1, error: { code, msg } }), { headers: { 'content-type': 'application/json' } });
}

/** Requests the stub has not answered yet, answered by the test in any order. */
function pendingFetch() {
  const calls: { path: string; body: Record<string, unknown>; answer: (response: Response) => void }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((resolve) => {
          const url = new URL(String(input), 'http://localhost');
          calls.push({ path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : {}, answer: resolve });
        }),
    ),
  );
  return calls;
}

function Card() {
  const feed = useInfiniteQuery({ ...feedQueryOptions({ tab: 'all' }), staleTime: Infinity });
  const post = feed.data?.pages[0]?.list[0];
  return post ? <LikeButton post={post} /> : null;
}

describe('liking a post', () => {
  let queryClient: QueryClient;
  let onError: ReturnType<typeof vi.fn<(error: unknown, meta: ErrorMeta) => void>>;
  let stopEvents: () => void;
  const post: Post = makePost(7, { like_count: 10, is_like: false });

  beforeEach(() => {
    onError = vi.fn<(error: unknown, meta: ErrorMeta) => void>();
    queryClient = createQueryClient({ onError });
    stopEvents = applyAppEvents(queryClient);
    queryClient.setQueryData(feedQueryOptions({ tab: 'all' }).queryKey, {
      pages: [{ list: [post], page: { more: false, next_index: 7 } }],
      pageParams: [0],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <Card />
      </QueryClientProvider>,
    );
  });
  afterEach(() => {
    stopEvents();
    cleanup();
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  const button = () => screen.getByRole('button', { name: /点赞/ });

  it('shows the like at once, then the count the server answers', async () => {
    queryClient.setQueryData(sessionKeys.user, ME);
    const calls = pendingFetch();
    fireEvent.click(button());
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('取消点赞 11'));
    expect(button().getAttribute('aria-pressed')).toBe('true');
    // Stored in the outbox first, then sent.
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ path: '/serv/v1/likes/add', body: { post_id: 7 } });
    act(() => calls[0]!.answer(envelope({ is_success: true, like_count: 42 })));
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('取消点赞 42'));
  });

  it('puts it back when the server refuses, and the error hook says why', async () => {
    queryClient.setQueryData(sessionKeys.user, ME);
    const calls = pendingFetch();
    fireEvent.click(button());
    await waitFor(() => expect(button().getAttribute('aria-pressed')).toBe('true'));
    await waitFor(() => expect(calls).toHaveLength(1));
    act(() => calls[0]!.answer(refusal(-2005, '请求频繁')));
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('点赞 10'));
    expect(button().getAttribute('aria-pressed')).toBe('false');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: -2005 }), expect.objectContaining({ kind: 'mutation' }));
  });

  it('lets the latest tap settle: likes go one at a time, and an answer a later tap overrides changes nothing', async () => {
    queryClient.setQueryData(sessionKeys.user, ME);
    const calls = pendingFetch();
    fireEvent.click(button()); // like
    await waitFor(() => expect(calls).toHaveLength(1));
    fireEvent.click(button()); // and unlike while the like is on its way
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('点赞 10'));
    // The unlike waits for the like's answer: the server sees them in the order they were made.
    expect(calls.map((call) => call.path)).toEqual(['/serv/v1/likes/add']);
    act(() => calls[0]!.answer(envelope({ is_success: true, like_count: 11 })));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.path).toBe('/serv/v1/likes/cancel');
    expect(button().getAttribute('aria-label')).toBe('点赞 10');
    act(() => calls[1]!.answer(envelope({ is_success: true, like_count: 10 })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(button().getAttribute('aria-label')).toBe('点赞 10');
    expect(button().getAttribute('aria-pressed')).toBe('false');
  });

  /** The like tapped while the session check (the one request so far) is still unanswered. */
  async function tapWhileSessionCheckPending() {
    const opener = vi.fn();
    const restore = setLoginOpener(opener);
    const calls = pendingFetch();
    void queryClient.prefetchQuery(sessionQueryOptions());
    await waitFor(() => expect(calls).toHaveLength(1));
    fireEvent.click(button());
    expect(calls).toHaveLength(1);
    expect(opener).not.toHaveBeenCalled();
    return { opener, restore, sessionCheck: calls[0]!, calls };
  }

  it('tapped while the session check is on its way, waits for it: logged in, it likes with no login popup', async () => {
    const { opener, restore, sessionCheck, calls } = await tapWhileSessionCheckPending();
    act(() => sessionCheck.answer(envelope(ME)));
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('取消点赞 11'));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toMatchObject({ path: '/serv/v1/likes/add', body: { post_id: 7 } });
    expect(opener).not.toHaveBeenCalled();
    restore();
  });

  it('tapped while the session check is on its way, waits for it: logged out, the login popup opens and nothing is sent', async () => {
    const { opener, restore, sessionCheck, calls } = await tapWhileSessionCheckPending();
    act(() => sessionCheck.answer(refusal(-2000, '请先登录')));
    await waitFor(() => expect(opener).toHaveBeenCalledOnce());
    expect(calls).toHaveLength(1);
    expect(button().getAttribute('aria-pressed')).toBe('false');
    restore();
  });

  it('logged out, opens the login popup and likes once logged in', async () => {
    queryClient.setQueryData(sessionKeys.user, null);
    const opener = vi.fn();
    const restore = setLoginOpener(opener);
    const calls = pendingFetch();
    fireEvent.click(button());
    expect(opener).toHaveBeenCalledOnce();
    expect(calls).toHaveLength(0);
    // The login refetches what depends on who asks; the like is sent after that.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname;
        if (path === '/serv/v1/likes/add') return envelope({ is_success: true, like_count: 11 });
        return envelope({ list: [post], page: { more: false, next_index: 7 } });
      }),
    );
    await act(() => applyLogin(queryClient, ME));
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('取消点赞 11'));
    restore();
  });
});

describe('comment drafts', () => {
  afterEach(() => useCommentDrafts.setState({ drafts: {} }));

  it('keep the text and one client_id per post and answered comment until sent', () => {
    const { write, renew, clear } = useCommentDrafts.getState();
    write(draftKey(5), '第一');
    write(draftKey(5), '第一句');
    write(draftKey(5, 9), '回复');
    const drafts = useCommentDrafts.getState().drafts;
    expect(drafts[draftKey(5)]?.text).toBe('第一句');
    const id = drafts[draftKey(5)]!.clientId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(drafts[draftKey(5, 9)]!.clientId).not.toBe(id);
    expect(JSON.parse(localStorage.getItem('horde:comment-drafts')!).state.drafts[draftKey(5)].text).toBe('第一句');
    renew(draftKey(5));
    expect(useCommentDrafts.getState().drafts[draftKey(5)]!.clientId).not.toBe(id);
    clear(draftKey(5));
    expect(useCommentDrafts.getState().drafts[draftKey(5)]).toBeUndefined();
    expect(useCommentDrafts.getState().drafts[draftKey(5, 9)]?.text).toBe('回复');
  });
});

describe('broadcast events', () => {
  it('reach the other tabs, not this one (it changed its cache itself)', async () => {
    const heard = vi.fn();
    const off = hearOtherTabs(heard);
    const otherTab = new BroadcastChannel('horde:app-events');
    const received = new Promise<unknown>((resolve) => otherTab.addEventListener('message', (event) => resolve(event.data), { once: true }));
    tellOtherTabs([{ type: 'deletePost', post_id: 3 }]);
    expect(await received).toEqual({ type: 'deletePost', post_id: 3 });
    expect(heard).not.toHaveBeenCalled();
    otherTab.close();
    off();
  });

  it('from another tab are heard here', async () => {
    const heard = new Promise<unknown>((resolve) => {
      const stop = hearOtherTabs((event) => {
        stop();
        resolve(event);
      });
    });
    const otherTab = new BroadcastChannel('horde:app-events');
    otherTab.postMessage({ type: 'updateCommentNumber', post_id: 4, comment_count: 9 });
    expect(await heard).toEqual({ type: 'updateCommentNumber', post_id: 4, comment_count: 9 });
    otherTab.close();
  });
});
