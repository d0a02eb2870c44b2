/** Logout (SPEC.md section 4: clears the user and the university flag). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { applyLogout } from '../../entities/session/session-cache.ts';
import { request } from '../../lib/http.ts';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    // Already logged out on the server is still a logout here.
    mutationFn: () => request(endpoints.logout, {}).catch(() => ({})),
    onSettled: () => applyLogout(queryClient),
  });
}
