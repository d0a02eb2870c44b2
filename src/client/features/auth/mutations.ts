/** Logout (SPEC.md section 4: clears the user and the university flag). */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { applyLogout } from '../../entities/session/session-cache.ts';
import { request } from '../../lib/http.ts';

export async function logout(queryClient: QueryClient): Promise<void> {
  // Already logged out on the server is still a logout here.
  await request(endpoints.logout, {}).catch(() => ({}));
  await applyLogout(queryClient);
}
