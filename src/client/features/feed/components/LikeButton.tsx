import { formatCount } from '#shared/count.ts';
import type { Post } from '#shared/schemas.ts';
import { IconHeart } from '../../../ui/icons.tsx';
import { useLikePost } from '../like.ts';

/** 点赞 / 取消点赞 with the count; the same post shows the same state everywhere. */
export function LikeButton({ post }: { post: Post }) {
  const setLike = useLikePost();
  return (
    <button
      type="button"
      className={`post-stat post-stat--button${post.is_like ? ' post-stat--active' : ''}`}
      aria-pressed={post.is_like}
      aria-label={`${post.is_like ? '取消点赞' : '点赞'} ${post.like_count}`}
      onClick={() => setLike(post.id, !post.is_like)}
    >
      <IconHeart size={18} filled={post.is_like} />
      <span aria-hidden="true">{post.like_count > 0 ? formatCount(post.like_count) : '点赞'}</span>
    </button>
  );
}
