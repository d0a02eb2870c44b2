/**
 * Liking a post: the heart changes at once everywhere the post is shown, and the like goes
 * through the outbox, which sends the likes of a post in order, so the last tap settles it, keeps
 * them while offline, and puts back what was there when one is refused. Logged out, the login
 * popup opens and the like follows the login.
 */
import { useQueryClient } from '@tanstack/react-query';
import { makeWrite } from '../../entities/outbox/index.ts';
import { requireLogin } from '../../entities/session/login.ts';

export function useLikePost(): (postId: number, like: boolean) => void {
  const queryClient = useQueryClient();
  const setLike = (postId: number, on: boolean) => void makeWrite(queryClient, 'postLike', { post_id: postId, on });
  return (postId, like) => {
    if (requireLogin(queryClient, () => setLike(postId, like))) setLike(postId, like);
  };
}
