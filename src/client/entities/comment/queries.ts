/** The comments of a post (/message/detail/$id), with their first replies, and the rest of a comment's replies, under the keys of keys.ts. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { COMMENT_PAGE_SIZE } from '#shared/first-screen.ts';
import type { Comment, CommentBase, Paged } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';
import { commentKeys } from './keys.ts';

export const REPLY_PAGE_SIZE = 20;

export function commentsQueryOptions(postId: number) {
  return infiniteQueryOptions({
    queryKey: commentKeys.post(postId),
    queryFn: ({ pageParam, signal }): Promise<Paged<Comment>> =>
      request(endpoints.commentList, { post_id: postId, index: pageParam, size: COMMENT_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}

/** Every reply of top-level comment `commentId`, oldest first (the first page starts with those comment/list carries). */
export function repliesQueryOptions(postId: number, commentId: number) {
  return infiniteQueryOptions({
    queryKey: commentKeys.replies(postId, commentId),
    queryFn: ({ pageParam, signal }): Promise<Paged<CommentBase>> =>
      request(endpoints.commentReplies, { comment_id: commentId, index: pageParam, size: REPLY_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}
