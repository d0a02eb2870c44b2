import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
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
import { requireLogin } from '../../../entities/session/login.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { confirm } from '../../../ui/dialog/confirm-store.ts';
import { openPicker } from '../../../ui/picker/picker-store.ts';
import { toast } from '../../../ui/toast/toast-store.ts';
import { commentsQueryOptions, repliesQueryOptions } from '../../../entities/comment/queries.ts';
import { useCommentWrites } from '../mutations.ts';
import { useReplyThreads, useThreadPages } from '../reply-threads.ts';
import type { ReplyTarget } from './CommentComposer.tsx';
import { PendingComments, usePendingComments, type PendingComment } from './PendingComments.tsx';
import './comments.css';

/** What a comment row can do; the list gets them from the post's comments. */
interface CommentActions {
  viewerUid: number | undefined;
  postAuthorUid: number;
  onReply: (target: ReplyTarget) => void;
  onLike: (comment: CommentBase) => void;
  /** 更多: 投诉 (not on one's own), 删除 (one's own, or any on one's own post). */
  onMore: (comment: CommentBase, offers: { complain: boolean; remove: boolean }) => void;
}

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

/** The replies of a comment: those comment/list carried, and once opened, every one (fetched in pages) after them, in id order. */
function shownReplies(carried: readonly CommentBase[], fetched: readonly CommentBase[]): CommentBase[] {
  if (fetched.length === 0) return [...carried];
  const byId = new Map<number, CommentBase>();
  for (const reply of [...carried, ...fetched]) byId.set(reply.id, reply);
  return [...byId.values()].sort((a, b) => a.id - b.id);
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
  const pages = useThreadPages(postId, comment.id);
  const open = pages > 0;
  const query = useInfiniteQuery({ ...repliesQueryOptions(postId, comment.id), enabled: open });
  const replies = shownReplies(comment.replies, open ? pagedItems(query.data?.pages) : []);
  // More than comment/list carries: 共 N 条回复 opens them all (and, open, 收起回复 shows the first ones only).
  const opens = comment.reply_count > comment.replies.length || replies.length > comment.replies.length;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const listId = `comment-${comment.id}-replies`;
  // As many pages as the reader had (a reload, a list read again), or to the end for one's own reply.
  const loaded = query.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  useEffect(() => {
    if (open && hasNextPage && !isFetching && !isError && loaded < pages) void fetchNextPage();
  }, [open, hasNextPage, isFetching, isError, loaded, pages, fetchNextPage]);
  const toggle = () => {
    const { open: show, close } = useReplyThreads.getState();
    if (!open) return show(postId, comment.id);
    close(postId, comment.id);
    // The list above it shrinks: the button stays in sight, under the reader's finger.
    requestAnimationFrame(() => toggleRef.current?.scrollIntoView({ block: 'nearest' }));
  };
  const loadMore = () => {
    useReplyThreads.getState().open(postId, comment.id, loaded + 1);
    void fetchNextPage().then((result) => {
      // 加载更多回复 is gone with the last page: the keyboard's focus goes on from the toggle, not the page's top.
      if (!result.hasNextPage && document.activeElement === document.body) toggleRef.current?.focus();
    });
  };
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
        {open && query.isPending ? (
          <p className="comment-replies__state" role="status">
            <IconSpinner size={14} /> 回复加载中…
          </p>
        ) : null}
        {open && query.isError && !query.isFetchNextPageError ? (
          <p className="comment-replies__state" role="alert">
            回复加载失败
            <button type="button" className="button button--text" onClick={() => void query.refetch()}>
              重试
            </button>
          </p>
        ) : null}
        {open && query.isFetchingNextPage ? (
          <p className="comment-replies__state" role="status">
            <IconSpinner size={14} /> 加载中…
          </p>
        ) : open && query.isFetchNextPageError ? (
          <p className="comment-replies__state" role="alert">
            加载失败
            <button type="button" className="button button--text" onClick={loadMore}>
              重试
            </button>
          </p>
        ) : open && query.hasNextPage ? (
          <button type="button" className="comment-replies__toggle" onClick={loadMore}>
            加载更多回复
          </button>
        ) : null}
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
  const queryClient = useQueryClient();
  const options = commentsQueryOptions(postId);
  const query = useInfiniteQuery(options);
  const viewerUid = useQuery(sessionQueryOptions()).data?.uid;
  const writes = useCommentWrites(postId);
  const pending = usePendingComments(postId);
  const navigate = useNavigate();
  const actions: CommentActions = {
    viewerUid,
    postAuthorUid,
    onReply: (target) => {
      if (requireLogin(queryClient, () => onReply(target))) onReply(target);
    },
    onLike: (comment) => {
      const send = () => void writes.like(comment, !comment.is_like);
      if (requireLogin(queryClient, send)) send();
    },
    onMore: async (comment, offers) => {
      const choice = await openPicker({
        items: [
          ...(offers.complain ? [{ key: 'complain', text: '投诉' }] : []),
          ...(offers.remove ? [{ key: 'delete', text: '删除', danger: true }] : []),
        ],
      });
      if (choice?.key === 'complain') void navigate({ to: '/complain', search: { type: 'comment', id: comment.id } });
      if (choice?.key !== 'delete') return;
      if (!(await confirm({ title: '删除评论', content: '删除后无法恢复，确定删除这条评论吗？', okText: '删除', danger: true }))) return;
      const outcome = await writes.remove(comment.id);
      if (outcome.status === 'sent') toast.success('评论已删除');
      else if (outcome.status === 'queued') toast.info('已加入待发送，联网后删除');
    },
  };
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
