/**
 * What a write changed, applied to a tab's cache through the entities that own the data, so every
 * list and detail showing it changes at once: in the tab that made the write (run.ts) and in the
 * others when they hear of it (app/apply-other-tabs.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AppEvent } from '../../lib/app-events.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { setChannelFollowed } from '../channel/cache.ts';
import { updateComment } from '../comment/cache.ts';
import { commentKeys } from '../comment/keys.ts';
import { applyUnreadLeft, setNoticeSettings } from '../notice/cache.ts';
import { removePost, updatePost } from '../post/cache.ts';
import { postKeys } from '../post/queries.ts';
import { showUserFollowed } from '../user/cache.ts';

export function applyChange(queryClient: QueryClient, event: AppEvent): void {
  switch (event.type) {
    case 'addPostSuccess':
      loadChunk(() => import('../post/prepend.ts')).then(
        (prepend) => prepend.prependPost(queryClient, event.post),
        // Without its code, the lists learn of the post from the server.
        () => queryClient.invalidateQueries({ queryKey: postKeys.lists }),
      );
      return;
    case 'deletePost':
      return removePost(queryClient, event.post_id);
    case 'updatePostDetail':
      void queryClient.invalidateQueries({ queryKey: postKeys.detail(event.post_id) });
      void queryClient.invalidateQueries({ queryKey: postKeys.lists });
      return;
    case 'updateLikeStatus':
      return updatePost(queryClient, event.post_id, (post) => ({ ...post, is_like: event.is_like, like_count: event.like_count }));
    case 'updateCommentLike':
      return updateComment(queryClient, event.comment_id, (comment) => ({ ...comment, is_like: event.is_like, like_count: event.like_count }));
    case 'updateCommentNumber':
      updatePost(queryClient, event.post_id, (post) => ({ ...post, comment_count: event.comment_count }));
      void queryClient.invalidateQueries({ queryKey: commentKeys.post(event.post_id) });
      return;
    case 'updateVoteOption':
      return updatePost(queryClient, event.post_id, (post) => ({ ...post, vote: event.vote }));
    case 'updateUserStatus':
      return showUserFollowed(queryClient, event.viewer, event.uid, event.is_follow);
    case 'updateChannelList':
      setChannelFollowed(queryClient, event.viewer, event.channel, event.is_follow);
      // What the 关注 feed lists has changed.
      void queryClient.invalidateQueries({ queryKey: postKeys.feed({ tab: 'follow' }) });
      return;
    case 'noticesRead':
      return applyUnreadLeft(queryClient, event.viewer, event.count);
    case 'noticeSettings':
      return setNoticeSettings(queryClient, event.viewer, event.settings);
  }
}
