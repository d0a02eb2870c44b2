/**
 * Liking a post (issue 7): the heart changes at once everywhere the post is shown (the posts
 * entity), the server is asked, and only the latest request for a post settles it, so quick
 * taps never leave an older answer on screen. A refusal puts back what was there (the error
 * hook says why). Logged out, the login popup opens and the like follows the login.
 */
import { useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { cachedPost, updatePost } from '../../entities/post/cache.ts';
import { requireLogin } from '../../entities/session/login.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { request } from '../../lib/http.ts';
import { runMutation } from '../../lib/query-client.ts';

interface LikeRequest {
  postId: number;
  like: boolean;
  before: { is_like: boolean; like_count: number };
  seq: number;
}

const latestRequest = new Map<number, number>();
let lastSeq = 0;

export function useLikePost(): (postId: number, like: boolean) => void {
  const queryClient = useQueryClient();
  const send = (like: LikeRequest) =>
    runMutation(
      queryClient,
      {
        mutationFn: ({ postId, like }: LikeRequest) => request(like ? endpoints.likeAdd : endpoints.likeCancel, { post_id: postId }),
        onMutate: ({ postId, like, seq }) => {
          latestRequest.set(postId, seq);
          updatePost(queryClient, postId, (post) =>
            post.is_like === like ? post : { ...post, is_like: like, like_count: Math.max(0, post.like_count + (like ? 1 : -1)) },
          );
        },
        onSuccess: ({ like_count }, { postId, like, seq }) => {
          if (latestRequest.get(postId) === seq) emitAppEvent('updateLikeStatus', { post_id: postId, is_like: like, like_count });
        },
        onError: (_error, { postId, before, seq }) => {
          if (latestRequest.get(postId) === seq) updatePost(queryClient, postId, (post) => ({ ...post, ...before }));
        },
      },
      like,
    ).catch(() => undefined); // the error hook has said why

  const setLike = (postId: number, like: boolean): void => {
    const post = cachedPost(queryClient, postId);
    if (!post || post.is_like === like) return;
    void send({ postId, like, before: { is_like: post.is_like, like_count: post.like_count }, seq: ++lastSeq });
  };
  return (postId, like) => {
    if (requireLogin(queryClient, () => setLike(postId, like))) setLike(postId, like);
  };
}
