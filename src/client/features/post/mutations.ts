/**
 * Writing under a post: comments and replies, deleting them, liking them, each through the
 * outbox: shown at once, sent in order, kept while offline. What the answer changes (the post's
 * comment count, the list read again) is the write's own business (entities/comment/writes.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { CommentBase } from '#shared/schemas.ts';
import { CARRIED_REPLIES, rootOfComment } from '../../entities/comment/cache.ts';
import { makeWrite } from '../../entities/outbox/index.ts';
import type { Outcome } from '../../lib/write-queue/queue.ts';
import { ALL_PAGES, useReplyThreads } from './reply-threads.ts';

export interface NewComment {
  content: string;
  replyId?: number | undefined;
  /** The nick of the comment answered. */
  replyTo?: string | undefined;
  clientId: string;
}

/** The writes of the comments of post `postId`; each resolves with what became of it (sent, queued, refused). */
export function useCommentWrites(postId: number) {
  const queryClient = useQueryClient();
  return {
    add: ({ content, replyId, replyTo, clientId }: NewComment): Promise<Outcome> => {
      // A reply past the first ones the list carries shows only among all of its comment's replies.
      const root = replyId === undefined ? undefined : rootOfComment(queryClient, postId, replyId);
      if (root && root.reply_count >= CARRIED_REPLIES) useReplyThreads.getState().open(postId, root.id, ALL_PAGES);
      return makeWrite(queryClient, 'comment', { body: { post_id: postId, content, reply_id: replyId }, replyTo }, clientId);
    },
    remove: (commentId: number): Promise<Outcome> => makeWrite(queryClient, 'commentDelete', { comment_id: commentId, post_id: postId }),
    like: (comment: CommentBase, on: boolean): Promise<Outcome> => makeWrite(queryClient, 'commentLike', { comment_id: comment.id, on }),
  };
}
