/**
 * The writes that change comments: a comment or a reply (shown under its post from the outbox
 * while it waits), its delete, and a like of a comment or a reply.
 */
import { endpoints } from '#shared/endpoints.ts';
import type { Comment } from '#shared/schemas.ts';
import { asOneCall, authorOf, oneCall, switchWrite, type WriteAuthor, type WriteDefinition } from '../outbox/definition.ts';
import { cachedPost } from '../post/cache.ts';
import { addReply, cachedComment, commentsChanged, removeComment, rootOfComment, updateComment } from './cache.ts';

export interface CommentInput {
  body: { post_id: number; content: string; reply_id?: number | undefined };
  /** The nick of the comment it answers. */
  replyTo?: string | undefined;
}

export interface CommentWrite extends CommentInput {
  author: WriteAuthor;
  /** A reply's top-level comment, as the cache showed it when made: where it shows while it waits, and once sent. */
  rootId?: number | undefined;
}

export const comment: WriteDefinition<CommentInput, CommentWrite, Comment> = {
  make: (queryClient, input, viewer) => {
    const { post_id: postId, reply_id: replyId } = input.body;
    const rootId = replyId === undefined ? undefined : rootOfComment(queryClient, postId, replyId)?.id;
    return { data: { ...input, author: authorOf(viewer), ...(rootId === undefined ? {} : { rootId }) }, about: input.body.content };
  },
  ...asOneCall((write) => oneCall(endpoints.commentAdd, { ...write.data.body, client_id: write.id })),
  // A new comment comes with the list read again (its place, its replies' counts); a reply shows
  // under its comment at once, since the list carries only a comment's first replies.
  settle: (queryClient, write, answer) => {
    const { rootId, body } = write.data;
    if (rootId !== undefined) {
      const { reply_count: _count, replies: _replies, ...reply } = answer;
      addReply(queryClient, body.post_id, rootId, reply);
    }
    return commentsChanged(queryClient, body.post_id);
  },
  whenRefused: 'return',
};

export interface CommentDeleteInput {
  comment_id: number;
  post_id: number;
}

export const commentDelete: WriteDefinition<CommentDeleteInput, CommentDeleteInput, unknown> = {
  make: (queryClient, input) => ({ data: input, about: cachedComment(queryClient, input.comment_id)?.content ?? '' }),
  ...asOneCall((write) => oneCall(endpoints.commentDelete, { comment_id: write.data.comment_id, client_id: write.id })),
  show: (queryClient, write) => removeComment(queryClient, write.data.comment_id),
  // Read again: the comment comes back where it was.
  undo: (queryClient, write) => [
    { type: 'updateCommentNumber', post_id: write.data.post_id, comment_count: cachedPost(queryClient, write.data.post_id)?.comment_count ?? 0 },
  ],
  settle: (queryClient, write) => commentsChanged(queryClient, write.data.post_id),
  whenRefused: 'drop',
};

export interface CommentLikeInput {
  comment_id: number;
  on: boolean;
}

export const commentLike = switchWrite<CommentLikeInput, { like_count: number }>({
  target: (input) => `comment:${input.comment_id}`,
  isOn: (queryClient, input) => cachedComment(queryClient, input.comment_id)?.is_like,
  show(queryClient, input, on) {
    updateComment(queryClient, input.comment_id, (shown) =>
      shown.is_like === on ? shown : { ...shown, is_like: on, like_count: Math.max(0, shown.like_count + (on ? 1 : -1)) },
    );
  },
  call: (input, clientId) => oneCall(input.on ? endpoints.likeAdd : endpoints.likeCancel, { comment_id: input.comment_id, client_id: clientId }),
  changes(queryClient, input, on, _viewer, answer) {
    const shown = cachedComment(queryClient, input.comment_id);
    const likeCount = answer?.like_count ?? shown?.like_count;
    return likeCount === undefined ? [] : [{ type: 'updateCommentLike', comment_id: input.comment_id, is_like: on, like_count: likeCount }];
  },
  about: (queryClient, input) => cachedComment(queryClient, input.comment_id)?.content ?? '',
});
