/** The write that changes a user as the viewer sees them: following them, or no longer. */
import { endpoints } from '#shared/endpoints.ts';
import { oneCall, switchWrite } from '../outbox/definition.ts';
import { cachedUser, showUserFollowed } from './cache.ts';

export interface UserFollowInput {
  user_id: number;
  on: boolean;
}

export const userFollow = switchWrite<UserFollowInput, { is_follow: boolean }>({
  target: (input) => `user:${input.user_id}`,
  isOn: (queryClient, input) => cachedUser(queryClient, input.user_id)?.is_follow,
  show: (queryClient, input, on, viewer) => showUserFollowed(queryClient, viewer, input.user_id, on),
  call: (input, clientId) => oneCall(input.on ? endpoints.followUser : endpoints.unfollowUser, { user_id: input.user_id, client_id: clientId }),
  changes: (_queryClient, input, on, viewer, answer) => [{ type: 'updateUserStatus', uid: input.user_id, is_follow: answer?.is_follow ?? on, viewer }],
  about: (queryClient, input) => cachedUser(queryClient, input.user_id)?.nick ?? '',
});
