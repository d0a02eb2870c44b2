/** Topics (/topic/list, /topic/comment/$id). The only source of these query keys. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Paged, Post, TopicDetail } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const TOPIC_PAGE_SIZE = 20;
export const TOPIC_POSTS_PAGE_SIZE = 10;

export const topicKeys = {
  list: ['topic', 'list'] as const,
  detail: (topicId: number) => ['topic', topicId] as const,
  posts: (topicId: number) => ['topic', topicId, 'posts'] as const,
};

export function topicListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: topicKeys.list,
    queryFn: ({ pageParam, signal }): Promise<Paged<TopicDetail>> =>
      request(endpoints.topicList, { index: pageParam, size: TOPIC_PAGE_SIZE }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (lastPage) => (lastPage.page.more ? lastPage.page.next_index : undefined),
  });
}

export function topicDetailQueryOptions(topicId: number) {
  return queryOptions({
    queryKey: topicKeys.detail(topicId),
    queryFn: ({ signal }): Promise<TopicDetail> => request(endpoints.topicDetail, { topic_id: topicId }, { signal }),
  });
}

export function topicPostsQueryOptions(topicId: number) {
  return infiniteQueryOptions({
    queryKey: topicKeys.posts(topicId),
    queryFn: ({ pageParam, signal }): Promise<Paged<Post>> =>
      request(endpoints.topicPosts, { topic_id: topicId, index: pageParam, size: TOPIC_POSTS_PAGE_SIZE }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (lastPage) => (lastPage.page.more ? lastPage.page.next_index : undefined),
  });
}
