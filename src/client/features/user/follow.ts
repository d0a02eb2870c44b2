/**
 * Following a user (SPEC.md section 7: follower/follower_user and its cancel). The profile's
 * 关注 state and follower count, and the author of every post shown, follow at once in every
 * tab (updateUserStatus); the viewer's own following count follows too.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { requireLogin } from '../../entities/session/login.ts';
import { sessionQueryOptions } from '../../entities/session/queries.ts';
import { updateUser } from '../../entities/user/cache.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';

export function useFollowUser(uid: number): { follow: (on: boolean) => void; isPending: boolean } {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (on: boolean) =>
      request(on ? endpoints.followUser : endpoints.unfollowUser, { user_id: uid, client_id: newClientId() }),
    onSuccess: ({ is_follow }) => {
      emitAppEvent('updateUserStatus', { uid, is_follow });
      const viewer = queryClient.getQueryData(sessionQueryOptions().queryKey);
      if (viewer) updateUser(queryClient, viewer.uid, (me) => ({ ...me, following_count: Math.max(0, me.following_count + (is_follow ? 1 : -1)) }));
    },
  });
  return {
    follow: (on) => {
      if (requireLogin(queryClient, () => mutation.mutate(on))) mutation.mutate(on);
    },
    isPending: mutation.isPending,
  };
}
