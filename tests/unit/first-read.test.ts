/**
 * What a first visit's page carries (src/shared/first-screen.ts) and where the client puts it
 * (src/client/app/first-read.ts): /home's first feed page, a post, a profile and its first posts,
 * each where its page's loader looks, so the first screen renders without a call; read once, and ignored when
 * it is not a success or not this page's.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_READ_ATTRIBUTE, firstScreenOf, KEPT_AT_ATTRIBUTE } from '../../src/shared/first-screen.ts';
import type { UserInfo } from '../../src/shared/schemas.ts';
import { adoptFirstReads } from '../../src/client/app/first-read.ts';
import { carriedByPage, forgetCarriedByPage } from '../../src/client/lib/carried-by-page.ts';
import { adoptStoredFirstFeedPage, keepFirstFeedPage, STORED_FIRST_FEED_PAGE_KEY } from '../../src/client/entities/post/first-feed-page.ts';
import { feedQueryOptions, postDetailQueryOptions, userPostsQueryOptions } from '../../src/client/entities/post/queries.ts';
import { userInfoQueryOptions } from '../../src/client/entities/user/queries.ts';
import { commentsQueryOptions } from '../../src/client/entities/comment/queries.ts';
import { makeComment, makePost } from './fixtures.ts';

/** The page carries `text` for `endpoint`; `keptAt`: as the service worker serves a page it kept then. */
function carry(endpoint: string, text: string, keptAt?: number): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.setAttribute(FIRST_READ_ATTRIBUTE, endpoint);
  if (keptAt !== undefined) element.setAttribute(KEPT_AT_ATTRIBUTE, String(keptAt));
  element.textContent = text;
  document.body.append(element);
}

const homeFeed = feedQueryOptions({ tab: 'all' });
const user: UserInfo = { uid: 15, ucode: 'U15', nick: '读者', avatar: '', is_follow: false, intro: '', is_self: false, follower_count: 3, following_count: 1, post_count: 2, like_count: 9 };

afterEach(() => {
  for (const element of document.querySelectorAll(`[${FIRST_READ_ATTRIBUTE}]`)) element.remove();
  localStorage.clear();
  forgetCarriedByPage();
});

describe('firstScreenOf', () => {
  it('names the reads each page shows first, its own first, with the input of their first calls', () => {
    expect(firstScreenOf('/home')).toEqual({ page: 'home', reads: [{ endpoint: 'channelPosts', input: { tab: 'all', index: 0, size: 10 } }] });
    expect(firstScreenOf('/')).toEqual(firstScreenOf('/home'));
    expect(firstScreenOf('/message/detail/520')).toEqual({
      page: 'post',
      reads: [
        { endpoint: 'postDetail', input: { post_id: 520 } },
        { endpoint: 'commentList', input: { post_id: 520, index: 0, size: 20 } },
      ],
    });
    expect(firstScreenOf('/usercenter/15')).toEqual({
      page: 'userCenter',
      reads: [
        { endpoint: 'userInfo', input: { data_mode: 1, visit_user_id: 15 } },
        { endpoint: 'userPosts', input: { visit_user_id: 15, index: 0, size: 10 } },
      ],
    });
    expect(firstScreenOf('/usercenter/%E5%AD%A6%E5%91%98')?.reads).toEqual([
      { endpoint: 'userInfo', input: { data_mode: 1, visit_ucode: '学员' } },
      { endpoint: 'userPosts', input: { visit_ucode: '学员', index: 0, size: 10 } },
    ]);
  });

  it('has none for other pages and for links the client refuses', () => {
    for (const path of ['/channel/3', '/message/detail/0', '/message/detail/abc', '/message/detail/1234567890123456', '/message/detail/poster/5', '/usercenter/%E5', '/usercenter/%20', '/home/x']) {
      expect(firstScreenOf(path), path).toBeUndefined();
    }
  });
});

describe('adoptFirstReads', () => {
  it('puts /home’s first page where its feed query reads it, once, and the start keeps it for the next', async () => {
    const page = { list: [makePost(3), makePost(2)], page: { more: true, next_index: 2 } };
    carry('channelPosts', JSON.stringify({ code: 0, data: page }));
    const client = new QueryClient();
    keepFirstFeedPage(client);
    expect(adoptFirstReads(client, '/home')).toBe(true);
    expect(client.getQueryData(homeFeed.queryKey)).toEqual({ pages: [page], pageParams: [0] });
    // /home's loader finds it and calls nothing.
    await expect(client.ensureInfiniteQueryData(homeFeed)).resolves.toEqual({ pages: [page], pageParams: [0] });
    expect(JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)!).page).toEqual(page);
    expect(document.querySelector(`[${FIRST_READ_ATTRIBUTE}]`)).toBeNull();
    expect(adoptFirstReads(new QueryClient(), '/home')).toBe(false);
  });

  it('takes what a page the service worker kept carries as fetched when it was kept: shown at once, fetched again once shown', () => {
    const page = { list: [makePost(3)], page: { more: false, next_index: 3 } };
    carry('channelPosts', JSON.stringify({ code: 0, data: page }), 1_700_000_000_000);
    const kept = new QueryClient();
    expect(adoptFirstReads(kept, '/home')).toBe(true);
    expect(kept.getQueryData(homeFeed.queryKey)).toEqual({ pages: [page], pageParams: [0] });
    expect(kept.getQueryState(homeFeed.queryKey)).toMatchObject({ dataUpdatedAt: 1_700_000_000_000, isInvalidated: true });

    // The server's own page carries it as of now.
    carry('channelPosts', JSON.stringify({ code: 0, data: page }));
    const served = new QueryClient();
    const before = Date.now();
    expect(adoptFirstReads(served, '/home')).toBe(true);
    expect(served.getQueryState(homeFeed.queryKey)?.isInvalidated).toBe(false);
    expect(served.getQueryState(homeFeed.queryKey)?.dataUpdatedAt).toBeGreaterThanOrEqual(before);
  });

  it('gives way to a newer first page this device stored, never to an older one', () => {
    const keptPage = { list: [makePost(3)], page: { more: false, next_index: 3 } };
    const storedPage = { list: [makePost(4), makePost(3)], page: { more: false, next_index: 3 } };
    const keptAt = Date.now() - 60_000;
    for (const [savedAt, shown] of [
      [keptAt + 30_000, storedPage],
      [keptAt - 30_000, keptPage],
    ] as const) {
      localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, JSON.stringify({ savedAt, page: storedPage }));
      const client = new QueryClient();
      // As the app's start does: what the page carried, then what the device stored.
      keepFirstFeedPage(client);
      carry('channelPosts', JSON.stringify({ code: 0, data: keptPage }), keptAt);
      expect(adoptFirstReads(client, '/home')).toBe(true);
      adoptStoredFirstFeedPage(client, '/home');
      expect(client.getQueryData(homeFeed.queryKey)).toEqual({ pages: [shown], pageParams: [0] });
      // The older copy never takes the newer one's place in storage.
      expect(JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY)!).page).toEqual(savedAt > keptAt ? storedPage : keptPage);
    }
  });

  it('puts a post and its comments where its detail reads them, and a profile and its posts where its user centre does', async () => {
    const post = makePost(520);
    const comments = { list: [makeComment(31)], page: { more: true, next_index: 31 } };
    carry('postDetail', JSON.stringify({ code: 0, data: post }));
    carry('commentList', JSON.stringify({ code: 0, data: comments }));
    const client = new QueryClient();
    expect(adoptFirstReads(client, '/message/detail/520')).toBe(true);
    await expect(client.ensureQueryData(postDetailQueryOptions(520))).resolves.toEqual(post);
    const commentsQuery = commentsQueryOptions(520);
    expect(client.getQueryData(commentsQuery.queryKey)).toEqual({ pages: [comments], pageParams: [0] });
    // Their next page follows on from the carried one.
    expect(commentsQuery.getNextPageParam(comments, [comments], 0, [0])).toBe(31);
    expect(carriedByPage(commentsQuery.queryKey)).toBe(true);
    expect(carriedByPage(commentsQueryOptions(521).queryKey)).toBe(false);

    const theirPosts = { list: [makePost(7)], page: { more: false, next_index: 7 } };
    carry('userInfo', JSON.stringify({ code: 0, data: user }));
    carry('userPosts', JSON.stringify({ code: 0, data: theirPosts }));
    expect(adoptFirstReads(client, '/usercenter/15')).toBe(true);
    await expect(client.ensureQueryData(userInfoQueryOptions({ visit_user_id: 15 }))).resolves.toEqual(user);
    const postsQuery = userPostsQueryOptions({ visit_user_id: 15 });
    expect(client.getQueryData(postsQuery.queryKey)).toEqual({ pages: [theirPosts], pageParams: [0] });
    // The page showed them: the list shows them at once rather than in the background.
    expect(carriedByPage(postsQuery.queryKey)).toBe(true);
    expect(carriedByPage(userPostsQueryOptions({ visit_user_id: 16 }).queryKey)).toBe(false);
  });

  it('is false without the page’s own read, its posts there or not: the start then waits for the persisted cache', () => {
    const client = new QueryClient();
    carry('userPosts', JSON.stringify({ code: 0, data: { list: [makePost(7)], page: { more: false, next_index: 7 } } }));
    expect(adoptFirstReads(client, '/usercenter/15')).toBe(false);
  });

  it('ignores a page without it, another page’s read, an error envelope and broken JSON', () => {
    const client = new QueryClient();
    expect(adoptFirstReads(client, '/message/detail/520')).toBe(false);
    carry('channelPosts', JSON.stringify({ code: 0, data: { list: [], page: { more: false, next_index: 0 } } }));
    expect(adoptFirstReads(client, '/message/detail/520')).toBe(false);
    carry('postDetail', JSON.stringify({ code: 0, data: makePost(520) }));
    expect(adoptFirstReads(client, '/channel/3')).toBe(false);
    carry('postDetail', JSON.stringify({ code: -1, error: { code: -1005, msg: '动态不存在' } }));
    expect(adoptFirstReads(client, '/message/detail/520')).toBe(false);
    carry('postDetail', '{"code":0,');
    expect(adoptFirstReads(client, '/message/detail/520')).toBe(false);
    expect(client.getQueryData(postDetailQueryOptions(520).queryKey)).toBeUndefined();
    expect(client.getQueryData(homeFeed.queryKey)).toBeUndefined();
  });
});
