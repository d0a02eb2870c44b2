import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Post } from '#shared/schemas.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { IconComment } from '../../../ui/icons.tsx';
import { CommentComposer, type ReplyTarget } from './CommentComposer.tsx';
import { CommentList } from './CommentList.tsx';

/**
 * The comments under a post. PC: a comment box under the title (a 回复 turns it into a reply).
 * Mobile: a bar at the bottom opens /comment (写评论), and 回复 opens it for that comment.
 */
export function PostComments({ post }: { post: Post }) {
  const isMobile = useLayoutStore((s) => s.isMobile);
  const navigate = useNavigate();
  const [replyTo, setReplyTo] = useState<ReplyTarget | null>(null);

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
        composer={
          isMobile ? null : (
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
        <div className="comment-bar">
          <Link to="/comment" search={{ post_id: post.id }} className="comment-bar__open">
            <IconComment size={18} />
            <span>写评论…</span>
          </Link>
        </div>
      ) : null}
    </>
  );
}
