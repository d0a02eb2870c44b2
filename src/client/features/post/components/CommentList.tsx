import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Comment, CommentBase } from '#shared/schemas.ts';
import { formatCount } from '#shared/format.ts';
import { fullTime, readableTime } from '../../../format/time.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { IconHeart } from '../../../ui/icons.tsx';
import { LoadingRegion, Skeleton, SkeletonLines } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { pagedItems } from '../../../lib/paging.ts';
import { commentsQueryOptions } from '../queries.ts';
import './comments.css';

function CommentBody({ comment, reply = false }: { comment: CommentBase; reply?: boolean }) {
  return (
    <div className={`comment${reply ? ' comment--reply' : ''}`}>
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
        <p className="comment__text">{comment.content}</p>
        <div className="comment__foot">
          <time dateTime={new Date(comment.create_time).toISOString()} title={fullTime(comment.create_time)}>
            {readableTime(comment.create_time)}
          </time>
          <span className="comment__likes" aria-label={`点赞 ${comment.like_count}`}>
            <IconHeart size={14} />
            <span aria-hidden="true">{comment.like_count > 0 ? formatCount(comment.like_count) : ''}</span>
          </span>
        </div>
      </div>
    </div>
  );
}

function CommentItem({ comment }: { comment: Comment }) {
  const more = comment.reply_count - comment.replies.length;
  return (
    <li className="comment-item">
      <CommentBody comment={comment} />
      {comment.replies.length > 0 ? (
        <ul className="comment-replies">
          {comment.replies.map((reply) => (
            <li key={reply.id}>
              <CommentBody comment={reply} reply />
            </li>
          ))}
          {more > 0 ? <li className="comment-replies__more">共 {comment.reply_count} 条回复</li> : null}
        </ul>
      ) : null}
    </li>
  );
}

/** The comments of a post, oldest first, with their first replies. */
export function CommentList({ postId, total }: { postId: number; total: number }) {
  const query = useInfiniteQuery(commentsQueryOptions(postId));
  const comments = pagedItems(query.data?.pages);
  return (
    <section className="comments" aria-labelledby="comments-title">
      <h2 id="comments-title" className="section-title">
        评论 <span className="section-title__count">{formatCount(total)}</span>
      </h2>
      {query.isPending ? (
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
              <CommentItem key={comment.id} comment={comment} />
            ))}
          </ul>
          <ListFooter query={query} moreLabel="加载更多评论" />
        </>
      )}
    </section>
  );
}
