/**
 * Asking for a code and logging in: the login panel's alone, so they load with it. Login errors
 * are shown inside the popup (meta.silent).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICE_ID_HEADER, endpoints } from '#shared/endpoints.ts';
import type { LoginUser } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { deviceId } from '../../lib/ids.ts';
import { currentEnvironment } from '../../platform/environment.ts';
import { deviceKindOf, usesHeaderTicket } from '../../entities/session/credentials.ts';
import { applyLogin } from '../../entities/session/session-cache.ts';
import { writeStoredLogin } from '../../entities/session/stored-login.ts';

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
      const device = deviceId();
      // Only where the ticket must travel as a header does the login ask for it (by sending its
      // Device-Id); a browser's stays in the httpOnly cookie.
      const headerTicket = usesHeaderTicket(env);
      const { ticket, device_id, ...user } = await request(
        endpoints.login,
        { ...input, device_id: device, device_kind: deviceKindOf(env) },
        headerTicket ? { headers: { [DEVICE_ID_HEADER]: device } } : {},
      );
      writeStoredLogin({ ticket: headerTicket ? (ticket ?? '') : '', deviceId: device_id });
      return user;
    },
    onSuccess: (user) => applyLogin(queryClient, user),
    meta: { silent: true },
  });
}
