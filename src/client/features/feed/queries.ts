/**
 * Post lists (SPEC.md section 2: /home, /follow, /good and a channel's posts). The only
 * source of the feed's query keys: loaders and components use these same factories.
 */
import { infiniteQueryOptions, type InfiniteData, type QueryKey, type UseInfiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Paged, Post } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export type FeedTab = 'all' | 'follow' | 'good';

/** Which posts: a tab of the community feed, or one channel. */
export type FeedSource = { tab: FeedTab } | { channelId: number };

/** Posts per request (keyset pages). */
export const FEED_PAGE_SIZE = 10;

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

/** The cursor paging every post list shares (keyset: next_index while more). */
export const postListPaging = {
  initialPageParam: 0,
  getNextPageParam: (lastPage: Paged<Post>): number | undefined =>
    lastPage.page.more ? lastPage.page.next_index : undefined,
};

export const feedKeys = {
  all: ['feed'] as const,
  source: (source: FeedSource) => [...feedKeys.all, source] as const,
};

export function feedQueryOptions(source: FeedSource) {
  return infiniteQueryOptions({
    queryKey: feedKeys.source(source),
    queryFn: ({ pageParam, signal }): Promise<Paged<Post>> =>
      request(
        endpoints.channelPosts,
        'channelId' in source
          ? { channel_id: source.channelId, index: pageParam, size: FEED_PAGE_SIZE }
          : { tab: source.tab, index: pageParam, size: FEED_PAGE_SIZE },
        { signal },
      ),
    ...postListPaging,
    staleTime: FEED_STALE_TIME_MS,
  });
}
