/**
 * Writing under a post: comments and replies, deleting them, liking them. A comment and a like go
 * through the outbox (issue 9): sent in order, kept while offline. After a comment is added or
 * deleted the post's comment_count is read again and shown everywhere (updateCommentNumber),
 * since a deleted comment may take its replies' count with it; the post's comment list reads
 * itself again when it hears that, whichever tab or queued write caused it.
 */
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { endpoints } from '#shared/endpoints.ts';
import type { Comment, CommentBase, Paged } from '#shared/schemas.ts';
import { outbox } from '../../entities/outbox/index.ts';
import { postDetailQueryOptions } from '../../entities/post/queries.ts';
import { emitAppEvent, onAppEvent } from '../../lib/app-events.ts';
import { request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { commentKeys } from './queries.ts';

async function refreshCommentCount(queryClient: QueryClient, postId: number): Promise<void> {
  const post = await queryClient.fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 });
  emitAppEvent('updateCommentNumber', { post_id: postId, comment_count: post.comment_count });
}

/** While shown, the comments of post `postId` are read again whenever its comment count changes. */
export function useCommentsFollowCount(postId: number): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onAppEvent('updateCommentNumber', ({ post_id }) => {
        if (post_id === postId) void queryClient.invalidateQueries({ queryKey: commentKeys.post(postId) });
      }),
    [queryClient, postId],
  );
}

export interface NewComment {
  content: string;
  replyId?: number | undefined;
  /** The nick of the comment answered. */
  replyTo?: string | undefined;
  clientId: string;
}

/** Sends a comment through the outbox; resolves with what became of it (sent, queued, refused). */
export function useAddComment(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ content, replyId, replyTo, clientId }: NewComment) =>
      (await outbox(queryClient)).writeComment(clientId, { post_id: postId, content, reply_id: replyId }, replyTo),
    // The outbox says what to say about a refusal, and waits for the network itself.
    meta: { silent: true },
    networkMode: 'always',
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

/** Likes a comment or reply at once; a refusal puts it back (the outbox says why). */
export function useLikeComment(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ comment, like }: { comment: CommentBase; like: boolean }) => (await outbox(queryClient)).likeComment(comment, like),
    meta: { silent: true },
    networkMode: 'always',
    onMutate: ({ comment, like }) =>
      updateComment(queryClient, postId, comment.id, (c) => ({ ...c, is_like: like, like_count: Math.max(0, comment.like_count + (like ? 1 : -1)) })),
    onSuccess: (outcome, { comment, like }) => {
      // A later tap on the same heart is the last word; this answer counts only if it still agrees.
      if (outcome.status === 'sent') updateComment(queryClient, postId, comment.id, (c) => (c.is_like === like ? { ...c, like_count: outcome.data.like_count } : c));
      if (outcome.status === 'refused') updateComment(queryClient, postId, comment.id, (c) => ({ ...c, is_like: comment.is_like, like_count: comment.like_count }));
    },
    onError: (_error, { comment }) =>
      updateComment(queryClient, postId, comment.id, (c) => ({ ...c, is_like: comment.is_like, like_count: comment.like_count })),
  });
}
