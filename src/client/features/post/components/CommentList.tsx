import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { Comment, CommentBase } from '#shared/schemas.ts';
import { formatCount } from '#shared/count.ts';
import { fullTime, readableTime, useReadingClock } from '../../../format/time.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { IconHeart, IconMore, IconSpinner } from '../../../ui/icons.tsx';
import { RichText } from '../../../ui/RichText.tsx';
import { LoadingRegion, Skeleton, SkeletonLines } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { useDeferredUnlessCarried } from '../../../lib/carried-by-page.ts';
import { pagedItems } from '../../../lib/paging.ts';
import { commentsQueryOptions } from '../../../entities/comment/queries.ts';
import { useCommentActions, type CommentActions } from '../use-comment-actions.ts';
import { useReplyThread } from '../use-reply-thread.ts';
import type { ReplyTarget } from './CommentComposer.tsx';
import { PendingComments, usePendingComments, type PendingComment } from './PendingComments.tsx';
import './comments.css';

const commentAnchor = (id: number) => `comment-${id}`;

/** Once comment `id` is on the page: scrolled to the middle of the screen, marked, and focused for a screen reader. */
function useScrollToComment(id: number | undefined, shown: boolean): void {
  const done = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (id === undefined || !shown || done.current === id) return;
    const element = document.getElementById(commentAnchor(id));
    if (!element) return;
    done.current = id;
    element.classList.add('comment--focused');
    element.tabIndex = -1;
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  });
}

function CommentBody({ comment, reply = false, actions }: { comment: CommentBase; reply?: boolean; actions: CommentActions }) {
  const clock = useReadingClock();
  if (comment.is_deleted) {
    return (
      <div id={commentAnchor(comment.id)} className={`comment comment--deleted${reply ? ' comment--reply' : ''}`}>
        <p className="comment__text comment__text--deleted">该评论已删除</p>
      </div>
    );
  }
  const canDelete = actions.viewerUid !== undefined && (actions.viewerUid === comment.user.uid || actions.viewerUid === actions.postAuthorUid);
  return (
    <div id={commentAnchor(comment.id)} className={`comment${reply ? ' comment--reply' : ''}`}>
      <Link to="/usercenter/$id" params={{ id: String(comment.user.uid) }} className="comment__avatar" tabIndex={-1} aria-hidden="true">
        <Avatar src={comment.user.avatar} nick={comment.user.nick} size={reply ? 28 : 36} />
      </Link>
      <div className="comment__main">
        <div className="comment__head">
          <Link to="/usercenter/$id" params={{ id: String(comment.user.uid) }} className="comment__author">
            {comment.user.nick}
          </Link>
          {comment.reply_user ? (
            <span className="comment__reply-to">
              回复 <span className="comment__author-ref">{comment.reply_user.nick}</span>
            </span>
          ) : null}
        </div>
        {comment.hidden ? (
          // Only its author reads a hidden comment: why it is gone for everyone else.
          <p className="comment__hidden" role="note">
            该内容已被隐藏{comment.hidden_reason ? `：${comment.hidden_reason}` : ''}
          </p>
        ) : null}
        <RichText text={comment.content} className="comment__text" />
        <div className="comment__foot">
          <time dateTime={new Date(comment.create_time).toISOString()} title={fullTime(comment.create_time, clock?.utcOffsetMinutes)}>
            {readableTime(comment.create_time, clock?.now, clock?.utcOffsetMinutes)}
          </time>
          <button
            type="button"
            className={`comment__action${comment.is_like ? ' comment__action--active' : ''}`}
            aria-pressed={comment.is_like}
            aria-label={`${comment.is_like ? '取消点赞' : '点赞'} ${comment.like_count}`}
            onClick={() => actions.onLike(comment)}
          >
            <IconHeart size={14} filled={comment.is_like} />
            <span aria-hidden="true">{comment.like_count > 0 ? formatCount(comment.like_count) : ''}</span>
          </button>
          <button
            type="button"
            className="comment__action"
            aria-label={`回复 ${comment.user.nick}`}
            onClick={() => actions.onReply({ id: comment.id, nick: comment.user.nick })}
          >
            回复
          </button>
          <button
            type="button"
            className="comment__action comment__action--more"
            aria-label="更多"
            aria-haspopup="dialog"
            onClick={() => actions.onMore(comment, { complain: actions.viewerUid !== comment.user.uid, remove: canDelete })}
          >
            <IconMore size={16} />
          </button>
        </div>
      </div>
    </div>
  );
}

function CommentItem({
  postId,
  comment,
  pending,
  actions,
}: {
  postId: number;
  comment: Comment;
  /** One's own replies to it waiting in the outbox. */
  pending: readonly PendingComment[];
  actions: CommentActions;
}) {
  const { open, query, replies, opens, toggleRef, toggle, loadMore } = useReplyThread(postId, comment);
  const listId = `comment-${comment.id}-replies`;
  if (replies.length === 0 && pending.length === 0 && !opens) {
    return (
      <li className="comment-item">
        <CommentBody comment={comment} actions={actions} />
      </li>
    );
  }
  return (
    <li className="comment-item">
      <CommentBody comment={comment} actions={actions} />
      <div className="comment-replies">
        {replies.length > 0 ? (
          <ul className="comment-replies__list" id={listId} aria-label={`${comment.user.nick} 的评论的回复`}>
            {replies.map((reply) => (
              <li key={reply.id}>
                <CommentBody comment={reply} reply actions={actions} />
              </li>
            ))}
          </ul>
        ) : null}
        {open ? <RepliesState query={query} loadMore={loadMore} /> : null}
        <PendingComments postId={postId} items={pending} onReply={actions.onReply} replies />
        {opens ? (
          <button
            ref={toggleRef}
            type="button"
            className="comment-replies__toggle"
            aria-expanded={open}
            aria-controls={replies.length > 0 ? listId : undefined}
            onClick={toggle}
          >
            {open ? '收起回复' : `共 ${comment.reply_count} 条回复`}
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** An open thread's state under its replies: loading, failed (重试), or 加载更多回复 while there are more. */
function RepliesState({ query, loadMore }: { query: ReturnType<typeof useReplyThread>['query']; loadMore: () => void }) {
  return (
    <>
      {query.isPending ? (
        <p className="comment-replies__state" role="status">
          <IconSpinner size={14} /> 回复加载中…
        </p>
      ) : null}
      {query.isError && !query.isFetchNextPageError ? (
        <p className="comment-replies__state" role="alert">
          回复加载失败
          <button type="button" className="button button--text" onClick={() => void query.refetch()}>
            重试
          </button>
        </p>
      ) : null}
      {query.isFetchingNextPage ? (
        <p className="comment-replies__state" role="status">
          <IconSpinner size={14} /> 加载中…
        </p>
      ) : query.isFetchNextPageError ? (
        <p className="comment-replies__state" role="alert">
          加载失败
          <button type="button" className="button button--text" onClick={loadMore}>
            重试
          </button>
        </p>
      ) : query.hasNextPage ? (
        <button type="button" className="comment-replies__toggle" onClick={loadMore}>
          加载更多回复
        </button>
      ) : null}
    </>
  );
}

/** The comments of a post, oldest first, with their first replies (共 N 条回复 opens the rest), each with 点赞, 回复 and (one's own, or on one's own post) 删除. */
export function CommentList({
  postId,
  total,
  postAuthorUid,
  onReply,
  composer,
  focusCommentId,
}: {
  postId: number;
  total: number;
  postAuthorUid: number;
  onReply: (target: ReplyTarget) => void;
  /** The comment box, under the title (PC). */
  composer?: ReactNode;
  /** A comment to scroll to once shown (a notice opened the post there). */
  focusCommentId?: number | undefined;
}) {
  const options = commentsQueryOptions(postId);
  const query = useInfiniteQuery(options);
  const pending = usePendingComments(postId);
  const actions = useCommentActions(postId, postAuthorUid, onReply);
  // The comments render in the background (a transition, which React does in slices between
  // which the page stays responsive), after the post above them has shown: the skeleton holds
  // their place until then, unless the page itself carried and showed them (lib/carried-by-page.ts).
  // Once shown, what changes (a like, a reply, another page) renders at once.
  const deferred = useDeferredUnlessCarried(query.data, options.queryKey);
  const waiting = query.isPending || (deferred == null && query.data !== undefined);
  const comments = pagedItems(deferred == null ? undefined : query.data?.pages);
  useScrollToComment(focusCommentId, comments.length > 0);
  // A waiting reply shows under its comment when that is shown; a comment, or a reply whose comment is not, under the box.
  const shownRoots = new Set(comments.map((comment) => comment.id));
  const under = (rootId: number | undefined) => rootId !== undefined && shownRoots.has(rootId);
  return (
    <section className="comments" aria-labelledby="comments-title">
      <h2 id="comments-title" className="section-title">
        评论 <span className="section-title__count">{formatCount(total)}</span>
      </h2>
      {composer}
      <PendingComments postId={postId} items={pending.filter((item) => !under(item.data.rootId))} onReply={actions.onReply} />
      {waiting ? (
        <CommentsSkeleton />
      ) : query.isError && comments.length === 0 ? (
        <ErrorState title="评论加载失败" error={query.error} onRetry={() => void query.refetch()} />
      ) : comments.length === 0 ? (
        <EmptyState title="还没有评论" description="来说说你的看法吧。" />
      ) : (
        <>
          <ul className="comment-list">
            {comments.map((comment) => (
              <CommentItem
                key={comment.id}
                postId={postId}
                comment={comment}
                pending={pending.filter((item) => item.data.rootId === comment.id)}
                actions={actions}
              />
            ))}
          </ul>
          <ListFooter query={query} moreLabel="加载更多评论" />
        </>
      )}
    </section>
  );
}

/** Two comments' shapes while the comments load. */
function CommentsSkeleton() {
  return (
    <LoadingRegion label="评论加载中">
      {[0, 1].map((i) => (
        <div key={i} className="comment" aria-hidden="true">
          <Skeleton width={36} height={36} radius="50%" />
          <div className="comment__main">
            <Skeleton width={80} />
            <SkeletonLines lines={2} />
          </div>
        </div>
      ))}
    </LoadingRegion>
  );
}
