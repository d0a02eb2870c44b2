/**
 * A user's data on a device others use too: at logout every answer read as them leaves the cache
 * and the copy kept in IndexedDB at once, the remembered login and the kept first feed page go;
 * their unsent writes stay theirs (kept for their next login, or discarded, as they choose at
 * 退出登录; dismissing the question keeps them logged in); their drafts are theirs alone, and a
 * visitor's words are taken up by whoever logs in to send them.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { set as idbSet } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginUser } from '../../src/shared/schemas.ts';
import { channelKeys } from '../../src/client/entities/channel/queries.ts';
import { STORED_FIRST_FEED_PAGE_KEY } from '../../src/client/entities/post/first-feed-page.ts';
import { postKeys } from '../../src/client/entities/post/queries.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import { applyLogin } from '../../src/client/entities/session/session-cache.ts';
import { LOGIN_USER_KEY, rememberLoginUser } from '../../src/client/entities/session/stored-login.ts';
import { logout } from '../../src/client/features/auth/mutations.ts';
import { adoptVisitorDraft, postDraftKey, useDrafts } from '../../src/client/features/compose/drafts.ts';
import { draftKey, useCommentDrafts } from '../../src/client/features/post/comment-drafts.ts';
import { CommentComposer } from '../../src/client/features/post/components/CommentComposer.tsx';
import { readQueue } from '../../src/client/lib/write-queue/queue.ts';
import { outboxDb, type QueuedWrite } from '../../src/client/lib/write-queue/store.ts';
import { createLocalCache } from '../../src/client/lib/local-cache.ts';
import { persistQueryCache, QUERY_CACHE_STORE } from '../../src/client/lib/query-cache-persister.ts';
import { createQueryClient } from '../../src/client/lib/query-client.ts';
import { usePickerStore } from '../../src/client/ui/picker/picker-store.ts';
import { resetOutbox } from '../support/outbox.ts';
import { makePost } from './fixtures.ts';

const ME: LoginUser = { uid: 1, ucode: 'ME', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 };
const OTHER: LoginUser = { ...ME, uid: 2, ucode: 'OTHER', nick: '别人' };

let queryClient: QueryClient;
let stopPersisting: (() => void) | undefined;

beforeEach(async () => {
  await resetOutbox();
  useCommentDrafts.setState({ drafts: {} });
  queryClient = createQueryClient({ onError: () => undefined });
  queryClient.setQueryData(sessionKeys.user, ME);
  // Every call answers, as a server would, with nothing personal.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 0, data: {} }), { headers: { 'content-type': 'application/json' } })));
});
afterEach(() => {
  stopPersisting?.();
  stopPersisting = undefined;
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
});

/** The query keys the IndexedDB copy of the cache holds now. */
async function persistedKeys(): Promise<string[]> {
  const stored = await createLocalCache(QUERY_CACHE_STORE).get<{ clientState: { queries: { queryKey: unknown }[] } }>('client');
  return (stored?.clientState.queries ?? []).map((query) => JSON.stringify(query.queryKey));
}

const waitingComment = (id: string, uid: number): QueuedWrite => ({
  id,
  at: uid,
  uid,
  kind: 'comment',
  label: '评论',
  text: '没发出去的',
  state: 'waiting',
  data: { body: { post_id: 7, content: '没发出去的' }, author: { uid, nick: '我', avatar: '' } },
});

describe('a logout', () => {
  it('takes every answer read as the user out of the cache and out of its IndexedDB copy at once, with the remembered login and the kept first page', async () => {
    stopPersisting = await persistQueryCache(queryClient, { throttleMs: 60_000 });
    rememberLoginUser(ME);
    localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, '{}');
    queryClient.setQueryData(channelKeys.followed(ME.uid), [{ channel_id: 1, channel_name: 'Java' }]);
    queryClient.setQueryData(postKeys.detail(7), makePost(7, { is_like: true }));
    // Saved before the logout (the throttle would hold a later save for a minute).
    await waitFor(async () => expect(await persistedKeys()).toContain(JSON.stringify(postKeys.detail(7))));

    expect(await logout(queryClient)).toBe(true);
    expect(queryClient.getQueryData(postKeys.detail(7))).toBeUndefined();
    expect(queryClient.getQueryData(channelKeys.followed(ME.uid))).toBeUndefined();
    expect(queryClient.getQueryData(sessionKeys.user)).toBeNull();
    expect(await persistedKeys()).not.toContain(JSON.stringify(postKeys.detail(7)));
    expect(await persistedKeys()).not.toContain(JSON.stringify(channelKeys.followed(ME.uid)));
    expect(localStorage.getItem(LOGIN_USER_KEY)).toBeNull();
    expect(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)).toBeNull();
  });

  it('asks what becomes of the unsent writes: kept, they stay for the next login; dismissed, nobody is logged out', async () => {
    await idbSet([1, 'mine'], waitingComment('mine', ME.uid), outboxDb());
    await idbSet([2, 'theirs'], waitingComment('theirs', OTHER.uid), outboxDb());
    // No network: nothing is sent meanwhile.
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const stay = logout(queryClient);
      await waitFor(() => expect(usePickerStore.getState().current?.title).toBe('还有 1 条内容未发送'));
      usePickerStore.getState().settle(null);
      expect(await stay).toBe(false);
      expect(queryClient.getQueryData(sessionKeys.user)).toEqual(ME);

      const keep = logout(queryClient);
      await waitFor(() => expect(usePickerStore.getState().current?.items.map((item) => item.text)).toEqual(['保留，下次登录后自动发送', '丢弃并退出']));
      usePickerStore.getState().settle(usePickerStore.getState().current!.items[0]!);
      expect(await keep).toBe(true);
      expect((await readQueue()).map((item) => item.id)).toEqual(['mine', 'theirs']);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('discards only the user’s own unsent writes when they choose so', async () => {
    await idbSet([1, 'mine'], waitingComment('mine', ME.uid), outboxDb());
    await idbSet([2, 'theirs'], waitingComment('theirs', OTHER.uid), outboxDb());
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const leaving = logout(queryClient);
      await waitFor(() => expect(usePickerStore.getState().current).not.toBeNull());
      usePickerStore.getState().settle(usePickerStore.getState().current!.items[1]!);
      expect(await leaving).toBe(true);
      expect((await readQueue()).map((item) => item.id)).toEqual(['theirs']);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });
});

describe('drafts on a shared device', () => {
  it('keeps each user’s post draft under their account; a visitor’s draft is taken up by the first user with none', () => {
    const { edit } = useDrafts.getState();
    edit(postDraftKey(undefined), (draft) => ({ ...draft, publishParams: { ...draft.publishParams, content: '登录前分享进来的' } }));
    edit(postDraftKey(OTHER.uid), (draft) => ({ ...draft, publishParams: { ...draft.publishParams, content: '别人的草稿' } }));
    adoptVisitorDraft(OTHER.uid);
    expect(useDrafts.getState().stored[postDraftKey(OTHER.uid)]).toMatchObject({ publishParams: { content: '别人的草稿' } });
    adoptVisitorDraft(ME.uid);
    expect(useDrafts.getState().stored[postDraftKey(ME.uid)]).toMatchObject({ publishParams: { content: '登录前分享进来的' } });
    expect(useDrafts.getState().stored[postDraftKey(undefined)]).toMatchObject({ removedAt: expect.any(Number) });
  });

  it('shows a comment box only its own user’s words, and a visitor’s words to whoever logs in to send them', async () => {
    useCommentDrafts.getState().write(draftKey(7, 0, OTHER.uid), '别人没写完的');
    useCommentDrafts.getState().write(draftKey(7), '登录前写的');
    queryClient.setQueryData(sessionKeys.user, null);
    render(
      <QueryClientProvider client={queryClient}>
        <CommentComposer postId={7} />
      </QueryClientProvider>,
    );
    const box = () => screen.getByRole('textbox', { name: '写评论' });
    expect(box()).toHaveProperty('value', '登录前写的');
    await applyLogin(queryClient, ME);
    await waitFor(() => expect(useCommentDrafts.getState().drafts[draftKey(7, 0, ME.uid)]?.text).toBe('登录前写的'));
    expect(box()).toHaveProperty('value', '登录前写的');
    expect(useCommentDrafts.getState().drafts[draftKey(7)]).toBeUndefined();
    expect(useCommentDrafts.getState().drafts[draftKey(7, 0, OTHER.uid)]?.text).toBe('别人没写完的');
  });
});
