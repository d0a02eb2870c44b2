/**
 * Who is logged in (fetched on first navigation; unknown, then logged in or out) and whether they
 * are a university user. The only source of these query keys; every feature may read them.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { LoginUser } from '#shared/schemas.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { isApiError, request } from '../../lib/http.ts';
import { currentEnvironment } from '../../platform/environment.ts';
import { rememberLoginUser } from './stored-login.ts';

export const sessionKeys = {
  user: ['session', 'user'] as const,
  university: (uid: number) => ['session', 'university', uid] as const,
  /** Everything that belongs to one login: dropped at logout. */
  all: ['session'] as const,
};

const loggedOutCodes: ReadonlySet<number> = new Set([ErrorCode.NotLoggedIn, ErrorCode.SessionInvalid]);

/** The login user, or null when logged out (-2000 is an answer here, not an error). */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionKeys.user,
    queryFn: async ({ signal }): Promise<LoginUser | null> => {
      const env = currentEnvironment();
      if (env.kind === 'app') {
        // Only the native app can answer for itself: its reader loads there alone.
        const { nativeLoginUser } = await loadChunk(() => import('./native-user.ts'));
        const fromApp = await nativeLoginUser(env);
        if (fromApp !== undefined) return fromApp;
      }
      try {
        const user = await request(endpoints.auth, { t: String(Date.now()) }, { signal });
        rememberLoginUser(user);
        return user;
      } catch (error) {
        // A 452 is not "logged out": it must reach the error hook, which explains it.
        if (isApiError(error) && error.kind === 'business' && loggedOutCodes.has(error.code)) {
          rememberLoginUser(null);
          return null;
        }
        // No answer (offline): the user last seen here is still logged in as far as anyone knows;
        // the network's return reads the session again.
        if (isApiError(error) && (error.kind === 'network' || error.kind === 'timeout')) {
          const remembered = await loadChunk(() => import('./remembered-user.ts')).then((stored) => stored.rememberedLoginUser(), () => null);
          if (remembered) return remembered;
        }
        throw error;
      }
    },
    staleTime: 5 * 60_000,
    // Not kept with the cache (the login user is remembered on its own, stored-login.ts), and a failed check stays quiet.
    meta: { persist: false, silent: true },
  });
}

/** The uid of who is logged in as the cache knows it: null for nobody, undefined while not known. */
export function knownViewer(queryClient: QueryClient): number | null | undefined {
  const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
  return user === undefined ? undefined : (user?.uid ?? null);
}

/** Whether the login user is a university user, fetched after login. */
export function universityQueryOptions(uid: number) {
  return queryOptions({
    queryKey: sessionKeys.university(uid),
    queryFn: async ({ signal }): Promise<boolean> => (await request(endpoints.checkUser, {}, { signal })).result,
    staleTime: Infinity,
    meta: { persist: false, silent: true },
  });
}
