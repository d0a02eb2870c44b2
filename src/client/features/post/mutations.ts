/**
 * Writing under a post: comments and replies, deleting them, liking them. After a comment is
 * added or deleted the post's comment_count is read again and shown everywhere
 * (updateCommentNumber), since a deleted comment may take its replies' count with it.
 */
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Comment, CommentBase, Paged } from '#shared/schemas.ts';
import { postDetailQueryOptions } from '../../entities/post/queries.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { commentKeys } from './queries.ts';

async function refreshCommentCount(queryClient: QueryClient, postId: number): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: commentKeys.post(postId) });
  const post = await queryClient.fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 });
  emitAppEvent('updateCommentNumber', { post_id: postId, comment_count: post.comment_count });
}

export interface NewComment {
  content: string;
  replyId?: number | undefined;
  clientId: string;
}

export function useAddComment(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ content, replyId, clientId }: NewComment) =>
      request(endpoints.commentAdd, { post_id: postId, content, reply_id: replyId, client_id: clientId }),
    onSuccess: () => refreshCommentCount(queryClient, postId),
  });
}

export function useDeleteComment(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: number) => request(endpoints.commentDelete, { comment_id: commentId, client_id: newClientId() }),
    onSuccess: () => refreshCommentCount(queryClient, postId),
  });
}

type CommentPages = InfiniteData<Paged<Comment>, number>;

/** Applies `fn` to comment or reply `id` in the cached comments of post `postId`. */
function updateComment(queryClient: QueryClient, postId: number, id: number, fn: (comment: CommentBase) => CommentBase): void {
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        list: page.list.map((comment) =>
          comment.id === id
            ? { ...comment, ...fn(comment) }
            : comment.replies.some((reply) => reply.id === id)
              ? { ...comment, replies: comment.replies.map((reply) => (reply.id === id ? fn(reply) : reply)) }
              : comment,
        ),
      })),
    },
  );
}

/** Likes a comment or reply at once; a refusal puts it back (the error hook says why). */
export function useLikeComment(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ comment, like }: { comment: CommentBase; like: boolean }) =>
      request(like ? endpoints.likeAdd : endpoints.likeCancel, { comment_id: comment.id }),
    onMutate: ({ comment, like }) =>
      updateComment(queryClient, postId, comment.id, (c) => ({ ...c, is_like: like, like_count: Math.max(0, comment.like_count + (like ? 1 : -1)) })),
    onSuccess: ({ like_count }, { comment, like }) =>
      updateComment(queryClient, postId, comment.id, (c) => ({ ...c, is_like: like, like_count })),
    onError: (_error, { comment }) =>
      updateComment(queryClient, postId, comment.id, (c) => ({ ...c, is_like: comment.is_like, like_count: comment.like_count })),
  });
}
