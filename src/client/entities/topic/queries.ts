/** Topics: the list (the topic pages, the composer's suggestions) and one topic; a topic's posts belong to the posts entity. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Paged, TopicDetail } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';

export const TOPIC_PAGE_SIZE = 20;

export const topicKeys = {
  list: ['topics', 'list'] as const,
  detail: (topicId: number) => ['topics', 'detail', topicId] as const,
};

export function topicListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: topicKeys.list,
    queryFn: ({ pageParam, signal }): Promise<Paged<TopicDetail>> =>
      request(endpoints.topicList, { index: pageParam, size: TOPIC_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}

export function topicDetailQueryOptions(topicId: number) {
  return queryOptions({
    queryKey: topicKeys.detail(topicId),
    queryFn: ({ signal }): Promise<TopicDetail> => request(endpoints.topicDetail, { topic_id: topicId }, { signal }),
  });
}
