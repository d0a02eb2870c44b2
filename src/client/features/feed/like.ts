/**
 * Liking a post (issue 7): the heart changes at once everywhere the post is shown, and the like
 * goes through the outbox (issue 9), which sends the likes of a post in order, so the last tap
 * settles it, keeps them while offline, and puts back what was there when one is refused.
 * Logged out, the login popup opens and the like follows the login.
 */
import { useQueryClient } from '@tanstack/react-query';
import { outbox } from '../../entities/outbox/index.ts';
import { requireLogin } from '../../entities/session/login.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export function useLikePost(): (postId: number, like: boolean) => void {
  const queryClient = useQueryClient();
  const setLike = (postId: number, like: boolean) =>
    void outbox(queryClient).then(
      (writes) => writes.likePost(postId, like),
      // Its code did not load (a ChunkLoadError says so).
      (error: Error) => toast.error(error.message),
    );
  return (postId, like) => {
    if (requireLogin(queryClient, () => setLike(postId, like))) setLike(postId, like);
  };
}
