/**
 * Following a user (the calls follower/follower_user and its cancel). The profile's
 * 关注 state and follower count, the author of every post shown and the viewer's own following
 * count change at once; the follow goes through the outbox: sent in order, kept while offline,
 * put back if refused, and heard by every tab once sent.
 */
import { useQueryClient } from '@tanstack/react-query';
import { makeWrite } from '../../entities/outbox/index.ts';
import { requireLogin } from '../../entities/session/login.ts';

export function useFollowUser(userId: number): (on: boolean) => void {
  const queryClient = useQueryClient();
  const send = (on: boolean) => void makeWrite(queryClient, 'userFollow', { user_id: userId, on });
  return (on) => {
    if (requireLogin(queryClient, () => send(on))) send(on);
  };
}
