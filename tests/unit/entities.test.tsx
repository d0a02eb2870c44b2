/**
 * The entities own every cached copy of a post, a user and a channel: a change made through
 * their helpers shows at once on every screen that holds one, with no refetch.
 */
import { QueryClient, QueryClientProvider, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Paged, Post } from '../../src/shared/schemas.ts';
import { setChannelFollowed } from '../../src/client/entities/channel/cache.ts';
import { channelCategoriesQueryOptions, channelDetailQueryOptions, followedChannelsQueryOptions } from '../../src/client/entities/channel/queries.ts';
import { removePost, updatePost } from '../../src/client/entities/post/cache.ts';
import { prependPost } from '../../src/client/entities/post/prepend.ts';
import {
  feedQueryOptions,
  postDetailQueryOptions,
  topicPostsQueryOptions,
  userPostsQueryOptions,
} from '../../src/client/entities/post/queries.ts';
import { setUserFollowed } from '../../src/client/entities/user/cache.ts';
import { userInfoQueryOptions } from '../../src/client/entities/user/queries.ts';
import { stubApi } from './fixtures.ts';

const POST_ID = 20;

function findIn(pages: readonly Paged<Post>[] | undefined, id: number): Post | undefined {
  return pages?.flatMap((page) => page.list).find((post) => post.id === id);
}

const shown = (post: Post | undefined) => (post ? `${post.like_count}${post.is_like ? '♥' : ''}` : 'absent');

/** Four screens at once, as a user could have them in the cache: a feed, a topic, a user's posts, the detail. */
function FourScreens() {
  const feed = useInfiniteQuery(feedQueryOptions({ tab: 'all' }));
  const topic = useInfiniteQuery(topicPostsQueryOptions(7));
  const user = useInfiniteQuery(userPostsQueryOptions({ visit_ucode: 'U20' }));
  const detail = useQuery(postDetailQueryOptions(POST_ID));
  return (
    <ul>
      <li data-testid="feed">{shown(findIn(feed.data?.pages, POST_ID))}</li>
      <li data-testid="topic">{shown(findIn(topic.data?.pages, POST_ID))}</li>
      <li data-testid="user">{shown(findIn(user.data?.pages, POST_ID))}</li>
      <li data-testid="detail">{shown(detail.data)}</li>
    </ul>
  );
}

const screens = ['feed', 'topic', 'user', 'detail'] as const;
const texts = () => screens.map((name) => screen.getByTestId(name).textContent);

describe('posts entity', () => {
  let queryClient: QueryClient;
  let fetchMock: ReturnType<typeof stubApi>;

  beforeEach(() => {
    fetchMock = stubApi({ posts: 25 });
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    render(
      <QueryClientProvider client={queryClient}>
        <FourScreens />
      </QueryClientProvider>,
    );
  });
  afterEach(() => {
    cleanup();
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('updatePost shows the change in a feed page, a topic page, a user page and the detail at once', async () => {
    await waitFor(() => expect(texts()).toEqual(['20', '20', '20', '20']));
    const calls = fetchMock.mock.calls.length;

    act(() => updatePost(queryClient, POST_ID, (post) => ({ ...post, is_like: true, like_count: post.like_count + 1 })));

    await waitFor(() => expect(texts()).toEqual(['21♥', '21♥', '21♥', '21♥']));
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('updatePost leaves other posts and their pages untouched', async () => {
    await waitFor(() => expect(texts()).toEqual(['20', '20', '20', '20']));
    const before = queryClient.getQueryData(feedQueryOptions({ tab: 'all' }).queryKey)!;
    act(() => updatePost(queryClient, 3, (post) => ({ ...post, like_count: 999 })));
    const after = queryClient.getQueryData(feedQueryOptions({ tab: 'all' }).queryKey)!;
    // Post 3 is not on a loaded page: nothing changes, and the loaded page keeps its identity
    // (its cards do not re-render).
    expect(after.pages[0]).toBe(before.pages[0]);
    expect(findIn(after.pages, 3)).toBeUndefined();
    expect(texts()).toEqual(['20', '20', '20', '20']);
  });

  it('removePost takes the post out of every list and forgets its detail', async () => {
    await waitFor(() => expect(texts()).toEqual(['20', '20', '20', '20']));
    const detailCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/post/detail')).length;
    expect(detailCalls()).toBe(1);
    act(() => removePost(queryClient, POST_ID));
    await waitFor(() => expect(texts().slice(0, 3)).toEqual(['absent', 'absent', 'absent']));
    // The cached detail is gone: a screen still showing it asks the server again (which answers
    // -1005 for a deleted post) instead of showing the copy.
    await waitFor(() => expect(detailCalls()).toBe(2));
    const feed = queryClient.getQueryData(feedQueryOptions({ tab: 'all' }).queryKey)!;
    expect(feed.pages[0]!.list.map((post) => post.id)).toEqual([25, 24, 23, 22, 21, 19, 18, 17, 16]);
  });
});

describe('a new post (prependPost)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('leads the lists it belongs to (all posts, its channel, its author) and no other, once', async () => {
    stubApi({ posts: 25 });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const all = feedQueryOptions({ tab: 'all' });
    const itsChannel = feedQueryOptions({ channelId: 3 });
    const otherChannel = feedQueryOptions({ channelId: 9 });
    const good = feedQueryOptions({ tab: 'good' });
    const author = userPostsQueryOptions({ visit_ucode: 'U5' });
    for (const options of [all, itsChannel, otherChannel, good]) await queryClient.fetchInfiniteQuery(options);
    await queryClient.fetchInfiniteQuery(author);
    const sample = queryClient.getQueryData(all.queryKey)!.pages[0]!.list[0]!;
    const post: Post = {
      ...sample,
      id: 900,
      channels: [{ ...sample.channels[0]!, channel_id: 3 }],
      topics: [],
      user: { ...sample.user, uid: 5, ucode: 'U5' },
    };

    prependPost(queryClient, post);
    prependPost(queryClient, post);

    const firstIds = (key: readonly unknown[]) =>
      (queryClient.getQueryData(key) as { pages: Paged<Post>[] }).pages[0]!.list.map((p) => p.id).slice(0, 2);
    expect(firstIds(all.queryKey)).toEqual([900, 25]);
    expect(firstIds(itsChannel.queryKey)).toEqual([900, 25]);
    expect(firstIds(author.queryKey)).toEqual([900, 25]);
    expect(firstIds(otherChannel.queryKey)).toEqual([25, 24]);
    expect(firstIds(good.queryKey)).toEqual([25, 24]);
    expect(queryClient.getQueryData(postDetailQueryOptions(900).queryKey)).toEqual(post);
  });
});

describe('users entity', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('setUserFollowed changes the profile (cached under a ucode), its follower count and every post by that user', async () => {
    stubApi({ posts: 25 });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await queryClient.fetchInfiniteQuery(feedQueryOptions({ tab: 'all' }));
    await queryClient.fetchQuery(userInfoQueryOptions({ visit_ucode: 'U5' }));
    // The fixture's author of post n is uid 100 + n; the fixture profile is uid 5.
    setUserFollowed(queryClient, 5, true);
    setUserFollowed(queryClient, 120, true);
    const profile = queryClient.getQueryData(userInfoQueryOptions({ visit_ucode: 'U5' }).queryKey)!;
    expect(profile).toMatchObject({ is_follow: true, follower_count: 2 });
    const feed = queryClient.getQueryData(feedQueryOptions({ tab: 'all' }).queryKey)!;
    expect(findIn(feed.pages, 20)!.user.is_follow).toBe(true);
    expect(findIn(feed.pages, 21)!.user.is_follow).toBe(false);
    // Following again changes nothing: the count is not raised twice.
    setUserFollowed(queryClient, 5, true);
    expect(queryClient.getQueryData(userInfoQueryOptions({ visit_ucode: 'U5' }).queryKey)!.follower_count).toBe(2);
  });
});

describe('channels entity', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('setChannelFollowed changes the followed list, the channel page and its follower count', async () => {
    stubApi();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await queryClient.fetchQuery(followedChannelsQueryOptions(1));
    await queryClient.fetchQuery(channelDetailQueryOptions(9));
    queryClient.setQueryData(channelCategoriesQueryOptions().queryKey, [
      { category_id: 1, category_name: '后端', list: [queryClient.getQueryData(channelDetailQueryOptions(9).queryKey)!] },
    ]);

    setChannelFollowed(queryClient, 1, { channel_id: 9, channel_name: 'Java 技术栈' }, true);
    expect(queryClient.getQueryData(followedChannelsQueryOptions(1).queryKey)!.map((c) => c.channel_id)).toEqual([3, 4, 9]);
    expect(queryClient.getQueryData(channelDetailQueryOptions(9).queryKey)).toMatchObject({ is_follow: true, follower_count: 11 });
    expect(queryClient.getQueryData(channelCategoriesQueryOptions().queryKey)![0]!.list[0]).toMatchObject({ is_follow: true });

    setChannelFollowed(queryClient, 1, { channel_id: 3, channel_name: '前端' }, false);
    expect(queryClient.getQueryData(followedChannelsQueryOptions(1).queryKey)!.map((c) => c.channel_id)).toEqual([4, 9]);
  });
});
