// @vitest-environment node
/**
 * Notices in the cache: marking read up to a notice takes from the unread count exactly the
 * unread notices seen, in every tab's list; what another tab says is left applies as said; and
 * a grouped notice reads as one line.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notice, Paged } from '../../src/shared/schemas.ts';
import { applyUnreadLeft, hasUnreadNotices, showNoticesRead } from '../../src/client/entities/notice/cache.ts';
import { noticeKeys, unreadNoticesQueryOptions } from '../../src/client/entities/notice/queries.ts';
import { showAppBadge } from '../../src/client/features/notice/app-badge.ts';
import { noticeHeadline } from '#shared/notice-headline.ts';

const UID = 7;
const actor = (uid: number, nick: string) => ({ uid, ucode: `u${uid}`, nick, avatar: '', is_follow: false });

function notice(id: number, unread: boolean, over: Partial<Notice> = {}): Notice {
  return {
    id,
    type: 'comment',
    actors: [actor(100 + id, `用户${id}`)],
    actor_count: 1,
    post_id: 1,
    comment_id: id,
    target_excerpt: '帖子',
    content_excerpt: '评论',
    route: `/message/detail/1?comment=${id}`,
    unread,
    update_time: 1_700_000_000_000 - id,
    ...over,
  };
}

const pagesOf = (...lists: Notice[][]) => ({
  pages: lists.map((list, i): Paged<Notice> => ({ list, page: { more: i < lists.length - 1, next_index: 0 } })),
  pageParams: lists.map((_, i) => i),
});

function cacheWith(unread: number): QueryClient {
  const queryClient = new QueryClient();
  queryClient.setQueryData(noticeKeys.unread(UID), unread);
  // 全部: newest first, over two pages; 评论 holds two of the same notices.
  queryClient.setQueryData(noticeKeys.list(UID, 'all'), pagesOf([notice(9, true), notice(8, true), notice(7, false)], [notice(6, true)]));
  queryClient.setQueryData(noticeKeys.list(UID, 'comment'), pagesOf([notice(9, true), notice(6, true)]));
  return queryClient;
}

const unreadIds = (queryClient: QueryClient, tab: 'all' | 'comment') =>
  queryClient
    .getQueryData<ReturnType<typeof pagesOf>>(noticeKeys.list(UID, tab))!
    .pages.flatMap((page) => page.list)
    .filter((n) => n.unread)
    .map((n) => n.id);

describe('notices in the cache', () => {
  it('read up to the newest: none unread, in every list', () => {
    const queryClient = cacheWith(5);
    showNoticesRead(queryClient, UID, 9);
    expect(queryClient.getQueryData(noticeKeys.unread(UID))).toBe(0);
    expect(unreadIds(queryClient, 'all')).toEqual([]);
    expect(unreadIds(queryClient, 'comment')).toEqual([]);
    expect(hasUnreadNotices(queryClient, UID)).toBe(false);
  });

  it('read up to an older one: the count loses the unread seen, the newer stay unread', () => {
    // 5 unread on the server, 3 of them cached: from notice 8 down, 8 and 6 are unread.
    const queryClient = cacheWith(5);
    showNoticesRead(queryClient, UID, 8);
    expect(queryClient.getQueryData(noticeKeys.unread(UID))).toBe(3);
    expect(unreadIds(queryClient, 'all')).toEqual([9]);
    expect(unreadIds(queryClient, 'comment')).toEqual([9]);
  });

  it("another tab's word: 0 left marks every list read; more left reads the lists again", async () => {
    const queryClient = cacheWith(5);
    applyUnreadLeft(queryClient, UID, 0);
    expect(unreadIds(queryClient, 'all')).toEqual([]);
    const other = cacheWith(5);
    applyUnreadLeft(other, UID, 2);
    expect(other.getQueryData(noticeKeys.unread(UID))).toBe(2);
    expect(other.getQueryState(noticeKeys.list(UID, 'all'))?.isInvalidated).toBe(true);
  });
});

describe('a notice as a line', () => {
  it('names the newest actor and how many there are', () => {
    const like = notice(1, true, { type: 'like', comment_id: 0, actors: [actor(1, '极客小明'), actor(2, 'b')], actor_count: 12 });
    expect(noticeHeadline(like)).toEqual({ who: '极客小明 等 12 人', did: '赞了你的动态' });
    expect(noticeHeadline({ ...like, comment_id: 3, actor_count: 1 })).toEqual({ who: '极客小明', did: '赞了你的评论' });
    expect(noticeHeadline(notice(2, true, { type: 'reply' })).did).toBe('回复了你的评论');
    expect(noticeHeadline(notice(3, true, { type: 'follow', actor_count: 2 }))).toEqual({ who: '用户3 等 2 人', did: '关注了你' });
  });

  it('names no one for a moderators\' decision: 社区通知, its text the notice\'s content', () => {
    expect(noticeHeadline(notice(4, true, { type: 'moderation', actors: [], actor_count: 0 }))).toEqual({ who: '社区通知', did: '' });
  });
});

describe("the installed app's icon", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the unread count, clears it at 0, and does nothing where the browser cannot', async () => {
    const setAppBadge = vi.fn(async () => undefined);
    const clearAppBadge = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { setAppBadge, clearAppBadge });
    showAppBadge(4);
    showAppBadge(0);
    expect(setAppBadge.mock.calls).toEqual([[4]]);
    expect(clearAppBadge).toHaveBeenCalledTimes(1);
    // Refused (not installed): nothing thrown, nothing left unhandled.
    vi.stubGlobal('navigator', { setAppBadge: () => Promise.reject(new Error('not installed')) });
    showAppBadge(2);
    vi.stubGlobal('navigator', {});
    expect(() => showAppBadge(3)).not.toThrow();
    await Promise.resolve();
  });
});

describe('the unread count, read again', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the tag of the count it holds, and keeps that count on a 304 with no body', async () => {
    const sent: (string | null)[] = [];
    const answers = [
      new Response(JSON.stringify({ code: 0, data: { count: 2 } }), { headers: { 'content-type': 'application/json', etag: '"unread-2"' } }),
      new Response(null, { status: 304 }),
      new Response(JSON.stringify({ code: 0, data: { count: 3 } }), { headers: { 'content-type': 'application/json' } }),
    ];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get('if-none-match'));
      return answers.shift()!;
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const options = unreadNoticesQueryOptions(UID);
    expect(await queryClient.fetchQuery({ ...options, staleTime: 0 })).toBe(2);
    expect(await queryClient.fetchQuery({ ...options, staleTime: 0 })).toBe(2);
    expect(await queryClient.fetchQuery({ ...options, staleTime: 0 })).toBe(3);
    expect(sent).toEqual([null, '"unread-2"', '"unread-2"']);
    queryClient.clear();
  });
});
