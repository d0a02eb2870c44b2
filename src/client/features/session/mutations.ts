/**
 * Login, logout and the user's followed channels. Login errors are shown inside the popup
 * (meta.silent), everything else goes through the one error hook.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Channel, LoginUser } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { deviceId } from '../../lib/ids.ts';
import { currentEnvironment } from '../../platform/environment.ts';
import { deviceKindOf, usesHeaderTicket } from './credentials.ts';
import { sessionKeys } from './queries.ts';
import { applyLogin, applyLogout } from './session-cache.ts';
import { writeStoredLogin } from './stored-login.ts';

export function useSendLoginCode() {
  return useMutation({
    mutationFn: (cellphone: string) => request(endpoints.loginCode, { cellphone }),
    meta: { silent: true },
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { cellphone: string; code: string }): Promise<LoginUser> => {
      const env = currentEnvironment();
      const { ticket, device_id, ...user } = await request(endpoints.login, {
        ...input,
        device_id: deviceId(),
        device_kind: deviceKindOf(env),
      });
      writeStoredLogin({ ticket: usesHeaderTicket(env) ? ticket : '', deviceId: device_id });
      return user;
    },
    onSuccess: (user) => applyLogin(queryClient, user),
    meta: { silent: true },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    // Already logged out on the server is still a logout here.
    mutationFn: () => request(endpoints.logout, {}).catch(() => ({})),
    onSettled: () => applyLogout(queryClient),
  });
}

/** Adds or removes a followed channel by channel_id (SPEC.md section 4, user channel list). */
export function useChannelFollow(uid: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ channel, follow }: { channel: Channel; follow: boolean }) => {
      await request(follow ? endpoints.followChannel : endpoints.unfollowChannel, { channel_id: channel.channel_id });
      return { channel, follow };
    },
    onSuccess: ({ channel, follow }) => {
      if (uid === undefined) return;
      queryClient.setQueryData<Channel[]>(sessionKeys.followedChannels(uid), (list = []) =>
        follow
          ? list.some((c) => c.channel_id === channel.channel_id)
            ? list
            : [...list, channel]
          : list.filter((c) => c.channel_id !== channel.channel_id),
      );
    },
  });
}
