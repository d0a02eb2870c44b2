/**
 * The writes a user may make offline, and what each does on screen (issue 9): a post (with its
 * pictures), a comment or reply, a like or unlike, a vote, a follow or unfollow, a complaint.
 * Each is queued in the outbox (lib/outbox/queue.ts) and sent in order; a switch (like, vote,
 * follow) shows at once and keeps showing while it waits, also over answers read meanwhile
 * (a refetch, a restored cache); an answer is shown everywhere through the entities and the
 * broadcast events; a refusal puts back what was shown, or (post, comment, complaint) keeps the
 * words as a returned write for their editor, with the message.
 *
 * Every attempt runs as a mutation of the query client (silent: the outbox says what to say),
 * so an ended session still reaches the error hook: -2000 opens the login popup, a 452 the
 * notice; the queue waits for the login.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { cutText } from '#shared/text-length.ts';
import type { Comment, LoginUser, Post, Vote } from '#shared/schemas.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { errorText } from '../../lib/error-text.ts';
import { request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { drain, startQueue, submit, type Outcome, type Sender } from '../../lib/outbox/queue.ts';
import { laterToggle } from '../../lib/outbox/rules.ts';
import { useOutbox, type QueuedWrite } from '../../lib/outbox/store.ts';
import { runMutation } from '../../lib/query-client.ts';
import { uploadImage } from '../../lib/upload.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { cachedPost, updatePost } from '../post/cache.ts';
import { postDetailQueryOptions, postKeys } from '../post/queries.ts';
import { sessionKeys, sessionQueryOptions } from '../session/queries.ts';
import { setUserFollowed, updateUser } from '../user/cache.ts';
import { userKeys } from '../user/queries.ts';
import type { CommentWrite, ComplainWrite, FollowWrite, LikeWrite, PostWrite, QueuedImage, VoteWrite, WriteAuthor } from './types.ts';

export { cancel, takeReturned, type Outcome } from '../../lib/outbox/queue.ts';

let client: QueryClient | undefined;
let stopWatching: (() => void) | undefined;

const queryClient = (): QueryClient => {
  if (!client) throw new Error('The outbox is not started');
  return client;
};

/**
 * Runs one attempt as a mutation, so the error hook hears an ended session. Always run: a
 * mutation paused while the browser says offline would hold the queue; the outbox itself waits.
 */
const attempt = <T>(send: () => Promise<T>): Promise<T> =>
  runMutation(queryClient(), { mutationFn: send, meta: { silent: true }, networkMode: 'always' }, undefined);

const excerpt = (text: string): string => cutText(text.replace(/\s+/g, ' ').trim(), 40);

function viewerNow(): LoginUser | null | undefined {
  return client?.getQueryData<LoginUser | null>(sessionKeys.user);
}

/** Who is logged in; undefined when it cannot be known now (offline, nothing cached). */
async function viewer(): Promise<number | null | undefined> {
  const known = viewerNow();
  if (known !== undefined) return known?.uid ?? null;
  try {
    // No retries: they would pause while offline and hold the queue.
    return (await queryClient().fetchQuery({ ...sessionQueryOptions(), retry: false }))?.uid ?? null;
  } catch {
    return undefined;
  }
}

let lastMadeAt = 0;

/**
 * When a write is made, as the queue orders writes: after every write waiting, even within one
 * millisecond (a like, a comment and a follow made in one tick would otherwise go by their ids).
 */
function madeAt(): number {
  for (const item of useOutbox.getState().items) lastMadeAt = Math.max(lastMadeAt, item.at);
  lastMadeAt = Math.max(Date.now(), lastMadeAt + 1);
  return lastMadeAt;
}

function queued<D>(kind: string, uid: number, fields: Omit<QueuedWrite<D>, 'kind' | 'uid' | 'at' | 'state' | 'id'> & { id?: string }): QueuedWrite<D> {
  return { id: newClientId(), ...fields, kind, uid, at: madeAt(), state: 'waiting' };
}

// ---------------------------------------------------------------------------------------------
// What waits keeps showing

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

const liked = (on: boolean) => (post: Post): Post =>
  post.is_like === on ? post : { ...post, is_like: on, like_count: Math.max(0, post.like_count + (on ? 1 : -1)) };

/**
 * Shows every waiting switch of the viewer on the cached posts and users: answers read while
 * they wait (a refetch, the cache restored at start, the service worker's copy offline) do not
 * know them yet. Each change leaves what already agrees alone.
 */
export function showWaiting(): void {
  const qc = client;
  if (!qc) return;
  const uid = viewerNow()?.uid;
  for (const item of useOutbox.getState().items) {
    if (item.state !== 'waiting' || (uid !== undefined && item.uid !== uid)) continue;
    if (item.kind === 'like') {
      const { target, like } = item.data as LikeWrite;
      if ('post_id' in target) updatePost(qc, target.post_id, liked(like));
    } else if (item.kind === 'follow') {
      const { user_id, on } = item.data as FollowWrite;
      setUserFollowed(qc, user_id, on);
    } else if (item.kind === 'vote') {
      const { post_id, option_ids } = item.data as VoteWrite;
      updatePost(qc, post_id, (post) => (post.vote && !post.vote.is_voted ? { ...post, vote: votedLocally(post.vote, option_ids) } : post));
    }
  }
}

function watch(qc: QueryClient): () => void {
  const known = viewerNow();
  useOutbox.setState({ viewer: known === undefined ? undefined : (known?.uid ?? null) });
  const offCache = qc.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [root, part] = event.query.queryKey;
    // A login (or the session read again): what waited for it goes now.
    if (root === sessionKeys.all[0] && part === sessionKeys.user[1]) {
      const user = event.action.data as LoginUser | null;
      useOutbox.setState({ viewer: user?.uid ?? null });
      if (user) void drain();
      return;
    }
    // Answers from the server (not our own changes) about posts or users.
    if (!event.action.manual && (root === postKeys.all[0] || root === userKeys.all[0])) showWaiting();
  });
  return offCache;
}

// ---------------------------------------------------------------------------------------------
// Senders

const say = (error: unknown): string => errorText(error);

const senders: Record<string, Sender> = {
  post: {
    async send(item, { save }) {
      const data = item.data as PostWrite;
      let images = data.images;
      // The pictures first, each stored with its url once uploaded: a later attempt skips it.
      for (const image of data.images) {
        if (image.url || !image.blob) continue;
        const uploaded = await attempt(() => uploadImage(image.blob!, () => undefined));
        images = images.map((i) => (i.localId === image.localId ? { ...i, ...uploaded, blob: undefined } : i));
        await save({ data: { ...data, images } });
      }
      const pictures = images.flatMap((image) =>
        image.url ? [{ type: 'image' as const, url: image.url, width: image.width, height: image.height }] : [],
      );
      return attempt(() => request(endpoints.postAdd, { ...data.body, attach: [...pictures, ...data.body.attach], client_id: item.id }));
    },
    sent(_item, post, foreground) {
      emitAppEvent('addPostSuccess', { post: post as Post });
      if (!foreground) toast.success('待发送的动态已发布');
    },
    refused(_item, error, foreground) {
      toast.error(foreground ? say(error) : `动态未发布：${say(error)}`);
      return 'return';
    },
  },

  comment: {
    send: (item) => attempt(() => request(endpoints.commentAdd, { ...(item.data as CommentWrite).body, client_id: item.id })),
    sent(item, _comment, foreground) {
      const postId = (item.data as CommentWrite).body.post_id;
      // The count may have moved with others' comments too: read it, and tell every screen
      // (the post's comment list reads itself again when it hears it).
      void queryClient()
        .fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 })
        .then((post) => emitAppEvent('updateCommentNumber', { post_id: postId, comment_count: post.comment_count }))
        .catch(() => undefined);
      if (!foreground) toast.success('待发送的评论已发出');
    },
    refused(_item, error, foreground) {
      toast.error(foreground ? say(error) : `评论未发出：${say(error)}`);
      return 'return';
    },
  },

  like: {
    send(item) {
      const { target, like } = item.data as LikeWrite;
      return attempt(() => request(like ? endpoints.likeAdd : endpoints.likeCancel, target));
    },
    sent(item, answer) {
      const { target, like } = item.data as LikeWrite;
      // A later switch of the same heart settles it; until then this answer is not the last word.
      if ('post_id' in target && !laterToggle(useOutbox.getState().items, item)) {
        emitAppEvent('updateLikeStatus', { post_id: target.post_id, is_like: like, like_count: (answer as { like_count: number }).like_count });
      }
    },
    refused(item, error) {
      toast.error(say(error));
      undoLike(item);
      return 'drop';
    },
    cancelled: (item) => undoLike(item),
  },

  vote: {
    send(item) {
      const { post_id, option_ids } = item.data as VoteWrite;
      return attempt(() => request(endpoints.voteSubmit, { post_id, option_ids, client_id: item.id }));
    },
    sent(item, vote) {
      emitAppEvent('updateVoteOption', { post_id: (item.data as VoteWrite).post_id, vote: vote as Vote });
    },
    refused(item, error) {
      toast.error(say(error));
      // The poll changed meanwhile (voted elsewhere, closed): read it again.
      const { post_id, undo } = item.data as VoteWrite;
      void queryClient()
        .fetchQuery({ ...postDetailQueryOptions(post_id), staleTime: 0 })
        .then(
          (post) => post.vote && emitAppEvent('updateVoteOption', { post_id, vote: post.vote }),
          () => updatePost(queryClient(), post_id, (post) => ({ ...post, vote: undo })),
        );
      return 'drop';
    },
    cancelled(item) {
      const { post_id, undo } = item.data as VoteWrite;
      updatePost(queryClient(), post_id, (post) => ({ ...post, vote: undo }));
    },
  },

  follow: {
    send(item) {
      const { user_id, on } = item.data as FollowWrite;
      return attempt(() => request(on ? endpoints.followUser : endpoints.unfollowUser, { user_id }));
    },
    sent(item, answer) {
      emitAppEvent('updateUserStatus', { uid: (item.data as FollowWrite).user_id, is_follow: (answer as { is_follow: boolean }).is_follow });
    },
    refused(item, error) {
      toast.error(say(error));
      undoFollow(item);
      return 'drop';
    },
    cancelled: (item) => undoFollow(item),
  },

  complain: {
    send: (item) => attempt(() => request(endpoints.complainAdd, { ...(item.data as ComplainWrite).body, client_id: item.id })),
    sent(_item, _answer, foreground) {
      if (!foreground) toast.success('待发送的投诉已提交');
    },
    refused(_item, error, foreground) {
      // The form that sent it shows the message itself.
      if (!foreground) toast.error(`投诉未提交：${say(error)}`);
      return 'return';
    },
  },
};

function undoLike(item: QueuedWrite): void {
  const { target, undo } = item.data as LikeWrite;
  if ('post_id' in target && !laterToggle(useOutbox.getState().items, item)) {
    updatePost(queryClient(), target.post_id, (post) => ({ ...post, ...undo }));
  }
}

/** The follow shown, and the viewer's following count, as they were. */
function showFollow(qc: QueryClient, viewerUid: number, userId: number, on: boolean): void {
  setUserFollowed(qc, userId, on);
  updateUser(qc, viewerUid, (me) => ({ ...me, following_count: Math.max(0, me.following_count + (on ? 1 : -1)) }));
}

function undoFollow(item: QueuedWrite): void {
  const { user_id, viewer } = item.data as FollowWrite;
  if (item.toggle && !laterToggle(useOutbox.getState().items, item)) showFollow(queryClient(), viewer, user_id, item.toggle.before);
}

// ---------------------------------------------------------------------------------------------
// The writes

/** Starts the outbox on this query client (once; again for another client, as in tests). */
export function startWrites(qc: QueryClient): void {
  if (client === qc) return;
  stopWatching?.();
  client = qc;
  stopWatching = watch(qc);
  // What waited from the last visit shows on the restored cache at once.
  void startQueue({ senders, viewer, message: say, loaded: showWaiting, tell: (message) => toast.warning(message) });
}

function author(user: LoginUser): WriteAuthor {
  return { uid: user.uid, nick: user.nick, avatar: user.avatar };
}

function loggedIn(): LoginUser {
  const user = viewerNow();
  if (!user) throw new Error('Writing needs a login');
  return user;
}

/** Likes or unlikes a post: the heart changes at once everywhere, the rest follows. */
export function likePost(postId: number, like: boolean): Promise<Outcome> {
  const qc = queryClient();
  const post = cachedPost(qc, postId);
  if (!post || post.is_like === like) return Promise.resolve({ status: 'dropped' });
  const undo = { is_like: post.is_like, like_count: post.like_count };
  updatePost(qc, postId, liked(like));
  return submit(
    queued<LikeWrite>('like', loggedIn().uid, {
      label: like ? '点赞' : '取消点赞',
      text: excerpt(post.content),
      toggle: { target: `post:${postId}`, on: like, before: post.is_like },
      data: { target: { post_id: postId }, like, undo },
    }),
  );
}

/** Likes or unlikes a comment (the caller shows it and applies the answer). */
export function likeComment(comment: { id: number; content: string; is_like: boolean; like_count: number }, like: boolean) {
  return submit<{ like_count: number }>(
    queued<LikeWrite>('like', loggedIn().uid, {
      label: like ? '点赞评论' : '取消点赞评论',
      text: excerpt(comment.content),
      toggle: { target: `comment:${comment.id}`, on: like, before: comment.is_like },
      data: { target: { comment_id: comment.id }, like, undo: { is_like: comment.is_like, like_count: comment.like_count } },
    }),
  );
}

/** Votes on a post's poll: counted at once on screen. */
export function vote(postId: number, optionIds: number[]): Promise<Outcome<Vote>> {
  const qc = queryClient();
  const post = cachedPost(qc, postId);
  if (!post?.vote) return Promise.resolve({ status: 'dropped' });
  const undo = post.vote;
  updatePost(qc, postId, (p) => (p.vote ? { ...p, vote: votedLocally(p.vote, optionIds) } : p));
  return submit<Vote>(
    queued<VoteWrite>('vote', loggedIn().uid, {
      label: '投票',
      text: undo.title,
      replaces: `vote:${postId}`,
      data: { post_id: postId, option_ids: optionIds, undo },
    }),
  );
}

/** Follows or unfollows a user: shown at once on their profile, their posts and the viewer's count. */
export function follow(user: { uid: number; nick: string; is_follow: boolean }, on: boolean): Promise<Outcome> {
  const me = loggedIn();
  if (user.is_follow === on) return Promise.resolve({ status: 'dropped' });
  showFollow(queryClient(), me.uid, user.uid, on);
  return submit(
    queued<FollowWrite>('follow', me.uid, {
      label: on ? '关注' : '取消关注',
      text: user.nick,
      toggle: { target: `user:${user.uid}`, on, before: user.is_follow },
      data: { user_id: user.uid, on, viewer: me.uid },
    }),
  );
}

/** Comments on a post or answers a comment, with the comment box's client_id. */
export function writeComment(clientId: string, body: CommentWrite['body'], replyTo?: string): Promise<Outcome<Comment>> {
  const me = loggedIn();
  return submit<Comment>(
    queued<CommentWrite>('comment', me.uid, {
      id: clientId,
      label: body.reply_id ? '回复' : '评论',
      text: excerpt(body.content),
      edit: `/message/detail/${body.post_id}`,
      data: { body, author: author(me), replyTo },
    }),
  );
}

/** Publishes a post with the draft's client_id; its pictures not yet uploaded go first. */
export function writePost(clientId: string, body: PostWrite['body'], images: QueuedImage[], restore: unknown): Promise<Outcome<Post>> {
  const me = loggedIn();
  return submit<Post>(
    queued<PostWrite>('post', me.uid, {
      id: clientId,
      label: '动态',
      text: excerpt(body.content),
      edit: '?compose=1',
      data: { body, images, author: author(me), restore },
    }),
  );
}

/** Files a complaint with the form's client_id. */
export function complain(clientId: string, body: ComplainWrite['body']): Promise<Outcome> {
  return submit(
    queued<ComplainWrite>('complain', loggedIn().uid, {
      id: clientId,
      label: '投诉',
      text: excerpt(body.content || '（未填写说明）'),
      edit: `/complain?type=${body.target_type}&id=${body.target_id}`,
      data: { body },
    }),
  );
}
