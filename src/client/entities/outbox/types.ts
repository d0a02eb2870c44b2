/**
 * What each kind of queued write carries (the `data` of a QueuedWrite). Types only: the
 * screens that show pending writes read them without loading the outbox's code.
 */
import type { InputOf } from '#shared/endpoints.ts';
import type { Vote } from '#shared/schemas.ts';
import type { QueuedWrite } from '../../lib/outbox/store.ts';

/** Who wrote it, as the pending card shows them. */
export interface WriteAuthor {
  uid: number;
  nick: string;
  avatar: string;
}

/** A picture of a post written offline: its Blob until it is uploaded, then the server's answer. */
export interface QueuedImage {
  localId: string;
  name: string;
  blob?: Blob | undefined;
  url?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
}

type PostInput = InputOf<'postAdd'>;

export interface PostWrite {
  /** post/add without its pictures and client_id (the write's id). */
  body: Omit<PostInput, 'client_id' | 'attach'> & { attach: Exclude<PostInput['attach'], undefined> };
  /** Uploaded before the post, in this order, ahead of the other attachments. */
  images: QueuedImage[];
  author: WriteAuthor;
  /** The composer's own copy of the draft (its fields beyond the body), given back if it is refused. */
  restore: unknown;
}

export interface CommentWrite {
  body: { post_id: number; content: string; reply_id?: number | undefined };
  author: WriteAuthor;
  /** The nick of the comment it answers. */
  replyTo?: string | undefined;
}

export interface LikeWrite {
  target: { post_id: number } | { comment_id: number };
  like: boolean;
  /** What the post showed before the first of the waiting likes: put back if refused or cancelled. */
  undo: { is_like: boolean; like_count: number };
}

export interface VoteWrite {
  post_id: number;
  option_ids: number[];
  /** The poll before the vote. */
  undo: Vote;
}

export interface FollowWrite {
  user_id: number;
  on: boolean;
  /** The viewer, whose following count moves with it. */
  viewer: number;
}

export interface ComplainWrite {
  body: Omit<InputOf<'complainAdd'>, 'client_id'>;
}

export type PostQueued = QueuedWrite<PostWrite> & { kind: 'post' };
export type CommentQueued = QueuedWrite<CommentWrite> & { kind: 'comment' };
export type ComplainQueued = QueuedWrite<ComplainWrite> & { kind: 'complain' };

export const isPostWrite = (item: QueuedWrite): item is PostQueued => item.kind === 'post';
export const isCommentWrite = (item: QueuedWrite): item is CommentQueued => item.kind === 'comment';
export const isComplainWrite = (item: QueuedWrite): item is ComplainQueued => item.kind === 'complain';
