/**
 * Posts: the one owner of every query key that holds posts (the three feeds, a channel's,
 * a topic's and a user's posts, and the detail). Loaders and components use these same
 * factories; cache.ts changes a post in every copy at once.
 */
import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient, type QueryKey, type UseInfiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { FEED_PAGE_SIZE, USER_POSTS_PAGE_SIZE } from '#shared/first-screen.ts';
import type { Paged, Post } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';
import type { VisitUser } from '#shared/visit.ts';
import { visitKey } from '../user/visit.ts';

export type FeedTab = 'all' | 'follow' | 'good';

/** Which posts: a tab of the community feed, or one channel. */
export type FeedSource = { tab: FeedTab } | { channelId: number };

export { FEED_PAGE_SIZE, USER_POSTS_PAGE_SIZE };

/** A feed stays fresh for a while: returning to /home shows it as it was (kept alive). */
export const FEED_STALE_TIME_MS = 5 * 60_000;

/** What PostList accepts: any infinite query of paged posts with a numeric cursor. */
export type PostListQueryOptions<TKey extends QueryKey = QueryKey> = UseInfiniteQueryOptions<
  Paged<Post>,
  Error,
  InfiniteData<Paged<Post>>,
  TKey,
  number
>;

export const postKeys = {
  all: ['posts'] as const,
  /** Every paged list of posts, whatever its source. */
  lists: ['posts', 'list'] as const,
  feed: (source: FeedSource) => ['posts', 'list', 'feed', source] as const,
  topic: (topicId: number) => ['posts', 'list', 'topic', topicId] as const,
  user: (visit: VisitUser) => ['posts', 'list', 'user', visitKey(visit)] as const,
  /** The posts a search found (entities/search): a list, so likes, votes and deletes reach them too. */
  search: (q: string) => ['posts', 'list', 'search', q] as const,
  details: ['posts', 'detail'] as const,
  detail: (postId: number) => ['posts', 'detail', postId] as const,
};

/** A cached list of posts: its loaded pages. */
export type PostPages = InfiniteData<Paged<Post>, number>;

/** Every post of every loaded page of every cached list (cache.ts changes them). */
export function listedPosts(queryClient: QueryClient): Post[] {
  return queryClient.getQueriesData<PostPages>({ queryKey: postKeys.lists }).flatMap(([, data]) => data?.pages.flatMap((page) => page.list) ?? []);
}

export function feedQueryOptions(source: FeedSource) {
  return infiniteQueryOptions({
    queryKey: postKeys.feed(source),
    queryFn: ({ pageParam, signal }): Promise<Paged<Post>> =>
      request(
        endpoints.channelPosts,
        'channelId' in source
          ? { channel_id: source.channelId, index: pageParam, size: FEED_PAGE_SIZE }
          : { tab: source.tab, index: pageParam, size: FEED_PAGE_SIZE },
        { signal },
      ),
    ...keysetPaging,
    staleTime: FEED_STALE_TIME_MS,
  });
}

export const TOPIC_POSTS_PAGE_SIZE = 10;

export function topicPostsQueryOptions(topicId: number) {
  return infiniteQueryOptions({
    queryKey: postKeys.topic(topicId),
    queryFn: ({ pageParam, signal }): Promise<Paged<Post>> =>
      request(endpoints.topicPosts, { topic_id: topicId, index: pageParam, size: TOPIC_POSTS_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}

export function userPostsQueryOptions(visit: VisitUser) {
  return infiniteQueryOptions({
    queryKey: postKeys.user(visit),
    queryFn: ({ pageParam, signal }): Promise<Paged<Post>> =>
      request(endpoints.userPosts, { ...visit, index: pageParam, size: USER_POSTS_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}

export function postDetailQueryOptions(postId: number) {
  return queryOptions({
    queryKey: postKeys.detail(postId),
    queryFn: ({ signal }): Promise<Post> => request(endpoints.postDetail, { post_id: postId }, { signal }),
  });
}
