/** One post and its comments (/message/detail/$id). The only source of these query keys. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Comment, Paged, Post } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const COMMENT_PAGE_SIZE = 20;

export const postKeys = {
  detail: (postId: number) => ['post', postId] as const,
  comments: (postId: number) => ['post', postId, 'comments'] as const,
};

export function postDetailQueryOptions(postId: number) {
  return queryOptions({
    queryKey: postKeys.detail(postId),
    queryFn: ({ signal }): Promise<Post> => request(endpoints.postDetail, { post_id: postId }, { signal }),
  });
}

export function commentsQueryOptions(postId: number) {
  return infiniteQueryOptions({
    queryKey: postKeys.comments(postId),
    queryFn: ({ pageParam, signal }): Promise<Paged<Comment>> =>
      request(endpoints.commentList, { post_id: postId, index: pageParam, size: COMMENT_PAGE_SIZE }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (lastPage) => (lastPage.page.more ? lastPage.page.next_index : undefined),
  });
}
