/**
 * What the broadcast events do to the data on screen, in one place: each is applied through
 * the entity that owns the data, so every list and detail showing it changes at once.
 */
import type { QueryClient } from '@tanstack/react-query';
import { removePost, updatePost } from '../entities/post/cache.ts';
import { postKeys } from '../entities/post/queries.ts';
import { setUserFollowed } from '../entities/user/cache.ts';
import { onAppEvent } from '../lib/app-events.ts';
import { loadChunk } from '../lib/chunk.ts';

export function applyAppEvents(queryClient: QueryClient): () => void {
  const offs = [
    onAppEvent('addPostSuccess', ({ post }) => {
      loadChunk(() => import('../entities/post/prepend.ts')).then(
        (m) => m.prependPost(queryClient, post),
        // Without its code, the lists learn of the post from the server.
        () => queryClient.invalidateQueries({ queryKey: postKeys.lists }),
      );
    }),
    onAppEvent('deletePost', ({ post_id }) => removePost(queryClient, post_id)),
    onAppEvent('updateLikeStatus', ({ post_id, is_like, like_count }) =>
      updatePost(queryClient, post_id, (post) => ({ ...post, is_like, like_count })),
    ),
    onAppEvent('updateCommentNumber', ({ post_id, comment_count }) =>
      updatePost(queryClient, post_id, (post) => ({ ...post, comment_count })),
    ),
    onAppEvent('updateVoteOption', ({ post_id, vote }) => updatePost(queryClient, post_id, (post) => ({ ...post, vote }))),
    onAppEvent('updateUserStatus', ({ uid, is_follow }) => setUserFollowed(queryClient, uid, is_follow)),
  ];
  return () => offs.forEach((off) => off());
}
