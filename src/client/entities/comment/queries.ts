/** The comments of a post (/message/detail/$id), with their first replies. The only source of these query keys. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { COMMENT_PAGE_SIZE } from '#shared/first-screen.ts';
import type { Comment, Paged } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';

export const commentKeys = {
  all: ['comments'] as const,
  post: (postId: number) => ['comments', postId] as const,
};

export function commentsQueryOptions(postId: number) {
  return infiniteQueryOptions({
    queryKey: commentKeys.post(postId),
    queryFn: ({ pageParam, signal }): Promise<Paged<Comment>> =>
      request(endpoints.commentList, { post_id: postId, index: pageParam, size: COMMENT_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}
