import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState, type Ref } from 'react';
import type { Post } from '#shared/schemas.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { useFocusClearOfBar } from '../../../ui/focus-clear-of-bar.ts';
import { IconComment } from '../../../ui/icons.tsx';
import { useScrolledPast } from '../../../ui/scrolled-past.ts';
import { CommentComposer, type ReplyTarget } from './CommentComposer.tsx';
import { CommentList } from './CommentList.tsx';

/**
 * The comments under a post. PC: a comment box under the title (a 回复 turns it into a reply).
 * Mobile: 写评论… under the title opens /comment, and 回复 opens it for that comment. Once the
 * reader has scrolled past that 写评论…, the same link follows them in a bar at the bottom; never
 * before, since a fixed bar covers whatever is under it (at load, the first comments' 点赞 and 回复).
 * While it shows, a control the keyboard focuses under it is scrolled clear of it.
 */
export function PostComments({ post, focusCommentId }: { post: Post; focusCommentId?: number | undefined }) {
  const isMobile = useLayoutStore((s) => s.isMobile);
  const navigate = useNavigate();
  const [replyTo, setReplyTo] = useState<ReplyTarget | null>(null);
  const inlineOpenerRef = useRef<HTMLAnchorElement>(null);
  const showBar = useScrolledPast(inlineOpenerRef);
  const barRef = useRef<HTMLDivElement>(null);
  useFocusClearOfBar(barRef, isMobile && showBar);

  const onReply = (target: ReplyTarget) => {
    if (isMobile) void navigate({ to: '/comment', search: { post_id: post.id, reply_id: target.id, reply_to: target.nick } });
    else setReplyTo(target);
  };

  return (
    <>
      <CommentList
        postId={post.id}
        total={post.comment_count}
        postAuthorUid={post.user.uid}
        onReply={onReply}
        focusCommentId={focusCommentId}
        composer={
          isMobile ? (
            <WriteCommentLink postId={post.id} ref={inlineOpenerRef} />
          ) : (
            <CommentComposer
              key={replyTo?.id ?? 0}
              postId={post.id}
              replyTo={replyTo}
              autoFocus={replyTo !== null}
              onCancelReply={() => setReplyTo(null)}
              onSent={() => setReplyTo(null)}
            />
          )
        }
      />
      {isMobile ? (
        <div className="comment-bar" hidden={!showBar} ref={barRef}>
          <WriteCommentLink postId={post.id} />
        </div>
      ) : null}
    </>
  );
}

function WriteCommentLink({ postId, ref }: { postId: number; ref?: Ref<HTMLAnchorElement> }) {
  return (
    <Link to="/comment" search={{ post_id: postId }} className="comment-opener" ref={ref}>
      <IconComment size={18} />
      <span>写评论…</span>
    </Link>
  );
}
