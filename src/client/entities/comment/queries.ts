/** The comments of a post (/message/detail/$id), with their first replies, and the rest of a comment's replies. The only source of these query keys. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { COMMENT_PAGE_SIZE } from '#shared/first-screen.ts';
import type { Comment, CommentBase, Paged } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';

export const REPLY_PAGE_SIZE = 20;

export const commentKeys = {
  all: ['comments'] as const,
  /** Under the post's key, so what reads the post's comments again reads its replies too. */
  post: (postId: number) => ['comments', postId] as const,
  replies: (postId: number, commentId: number) => ['comments', postId, 'replies', commentId] as const,
};

/** A key of commentKeys.replies (the others hold lists of comments). */
export const isRepliesKey = (key: readonly unknown[]): boolean => key[2] === 'replies';

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
