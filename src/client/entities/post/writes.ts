/**
 * The writes that change posts: a post (with its pictures, shown at the top of the feed from the
 * outbox while it waits), its delete, a like, and a vote on its poll.
 */
import { endpoints, type InputOf } from '#shared/endpoints.ts';
import type { Post, Vote } from '#shared/schemas.ts';
import { attachmentsOf, uploadPicture, type Picture } from '../../lib/picture.ts';
import { asOneCall, authorOf, oneCall, sendCall, switchWrite, type OneCall, type Queued, type WriteAuthor, type WriteDefinition } from '../outbox/definition.ts';
import { cachedPost, removePost, updatePost } from './cache.ts';

type PostAddInput = InputOf<'postAdd'>;

export interface PostInput {
  /** post/add without its pictures and client_id (the write's id). */
  body: Omit<PostAddInput, 'client_id' | 'attach'> & { attach: Exclude<PostAddInput['attach'], undefined> };
  /** Uploaded before the post when they are not yet, in this order, ahead of the other attachments. */
  images: Picture[];
}

export interface PostWrite extends PostInput {
  author: WriteAuthor;
}

/** post/add, once every picture is uploaded (null before). */
function postAddCall(write: Queued<PostWrite>): OneCall | null {
  const { body, images } = write.data;
  if (images.some((picture) => !picture.url)) return null;
  return oneCall(endpoints.postAdd, { ...body, attach: [...attachmentsOf(images), ...body.attach], client_id: write.id });
}

export const post: WriteDefinition<PostInput, PostWrite, Post> = {
  make: (_queryClient, input, viewer) => ({ data: { ...input, author: authorOf(viewer) }, about: input.body.content }),
  async send(write, { save }) {
    let data = write.data;
    // Each picture stored with its url once uploaded: a later attempt skips it.
    for (const picture of write.data.images) {
      if (picture.url) continue;
      const uploaded = await uploadPicture(picture);
      data = { ...data, images: data.images.map((other) => (other.localId === picture.localId ? uploaded : other)) };
      await save(data);
    }
    const call = postAddCall({ ...write, data });
    if (!call) throw new Error('A picture of the post was not uploaded');
    return sendCall<Post>(call);
  },
  call: postAddCall,
  settle: (_queryClient, _write, answer) => [{ type: 'addPostSuccess', post: answer }],
  whenRefused: 'return',
};

export interface PostDeleteInput {
  post_id: number;
}

export const postDelete: WriteDefinition<PostDeleteInput, PostDeleteInput, unknown> = {
  make: (queryClient, input) => ({ data: input, about: cachedPost(queryClient, input.post_id)?.content ?? '' }),
  ...asOneCall((write) => oneCall(endpoints.postDelete, { post_id: write.data.post_id, client_id: write.id })),
  show: (queryClient, write) => removePost(queryClient, write.data.post_id),
  // Read again: the post comes back in its lists.
  undo: (_queryClient, write) => [{ type: 'updatePostDetail', post_id: write.data.post_id }],
  settle: (_queryClient, write) => [{ type: 'deletePost', post_id: write.data.post_id }],
  whenRefused: 'drop',
};

/** A post as it shows liked or not (its count moved by one when that changes it). */
export const likedAs =
  (on: boolean) =>
  (shown: Post): Post =>
    shown.is_like === on ? shown : { ...shown, is_like: on, like_count: Math.max(0, shown.like_count + (on ? 1 : -1)) };

export interface PostLikeInput {
  post_id: number;
  on: boolean;
}

export const postLike = switchWrite<PostLikeInput, { like_count: number }>({
  target: (input) => `post:${input.post_id}`,
  isOn: (queryClient, input) => cachedPost(queryClient, input.post_id)?.is_like,
  show: (queryClient, input, on) => updatePost(queryClient, input.post_id, likedAs(on)),
  call: (input, clientId) => oneCall(input.on ? endpoints.likeAdd : endpoints.likeCancel, { post_id: input.post_id, client_id: clientId }),
  changes(queryClient, input, on, _viewer, answer) {
    const likeCount = answer?.like_count ?? cachedPost(queryClient, input.post_id)?.like_count;
    return likeCount === undefined ? [] : [{ type: 'updateLikeStatus', post_id: input.post_id, is_like: on, like_count: likeCount }];
  },
  about: (queryClient, input) => cachedPost(queryClient, input.post_id)?.content ?? '',
});

/** A poll as it shows once this viewer's choice is counted. */
export function votedLocally(vote: Vote, optionIds: readonly number[]): Vote {
  return {
    ...vote,
    is_voted: true,
    total: vote.total + 1,
    options: vote.options.map((option) =>
      optionIds.includes(option.option_id) ? { ...option, is_voted: true, count: option.count + 1 } : option,
    ),
  };
}

export interface VoteInput {
  post_id: number;
  option_ids: number[];
}

export interface VoteWrite extends VoteInput {
  /** The poll before the vote. */
  undo: Vote;
}

export const vote: WriteDefinition<VoteInput, VoteWrite, Vote> = {
  make(queryClient, input) {
    const poll = cachedPost(queryClient, input.post_id)?.vote;
    if (!poll || poll.is_voted) return null;
    return { data: { ...input, undo: poll }, about: poll.title, replaces: `vote:${input.post_id}` };
  },
  ...asOneCall((write) => oneCall(endpoints.voteSubmit, { post_id: write.data.post_id, option_ids: write.data.option_ids, client_id: write.id })),
  show(queryClient, write) {
    updatePost(queryClient, write.data.post_id, (shown) =>
      shown.vote && !shown.vote.is_voted ? { ...shown, vote: votedLocally(shown.vote, write.data.option_ids) } : shown,
    );
  },
  // The poll as it was, then read again: it may have changed meanwhile (voted elsewhere, closed).
  undo: (_queryClient, write) => [
    { type: 'updateVoteOption', post_id: write.data.post_id, vote: write.data.undo },
    { type: 'updatePostDetail', post_id: write.data.post_id },
  ],
  settle: (_queryClient, write, answer) => [{ type: 'updateVoteOption', post_id: write.data.post_id, vote: answer }],
  whenRefused: 'drop',
};
