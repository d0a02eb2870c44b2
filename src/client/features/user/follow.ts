/**
 * Following a user (SPEC.md section 7: follower/follower_user and its cancel). The profile's
 * 关注 state and follower count, the author of every post shown and the viewer's own following
 * count change at once; the follow goes through the outbox (issue 9): sent in order, kept while
 * offline, put back if refused, and heard by every tab once sent (updateUserStatus).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { UserInfo } from '#shared/schemas.ts';
import { outbox } from '../../entities/outbox/index.ts';
import { requireLogin } from '../../entities/session/login.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export function useFollowUser(user: Pick<UserInfo, 'uid' | 'nick' | 'is_follow'>): (on: boolean) => void {
  const queryClient = useQueryClient();
  const send = (on: boolean) =>
    void outbox(queryClient).then(
      (writes) => void writes.follow(user, on),
      (error: Error) => toast.error(error.message),
    );
  return (on) => {
    if (requireLogin(queryClient, () => send(on))) send(on);
  };
}
