/**
 * What logging in and out does to cached data: the session queries change, and every other
 * query is refetched because answers depend on who asks (is_like, is_follow, the follow feed).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { clearServiceWorkerApiCache } from '../../platform/service-worker-cache.ts';
import { savePersistedQueryCacheNow } from '../../lib/query-cache-persister.ts';
import { forgetFirstFeedPage } from '../post/first-feed-page.ts';
import { clearRecentSearches } from '../search/forget-searches.ts';
import { runAfterLogin } from './login.ts';
import { sessionKeys } from './queries.ts';
import { clearStoredLogin, rememberLoginUser } from './stored-login.ts';

const notSession = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== sessionKeys.all[0];

export async function applyLogin(queryClient: QueryClient, user: LoginUser): Promise<void> {
  queryClient.setQueryData(sessionKeys.user, user);
  rememberLoginUser(user);
  await queryClient.invalidateQueries({ predicate: notSession });
  // After the refetch, so what the user asked for (a like) is not undone by older answers.
  runAfterLogin();
}

/**
 * Logout clears the user, the university flag, the followed channels and the recent searches.
 * Every answer read as them goes too, at once and from the copy kept on this device (the next
 * person here, offline too, must not read them): the pages on screen read theirs again.
 */
export async function applyLogout(queryClient: QueryClient): Promise<void> {
  clearStoredLogin();
  rememberLoginUser(null);
  clearRecentSearches();
  clearServiceWorkerApiCache();
  queryClient.removeQueries({ queryKey: sessionKeys.all, predicate: (query) => query.queryKey[1] !== sessionKeys.user[1] });
  queryClient.setQueryData(sessionKeys.user, null);
  forgetFirstFeedPage();
  queryClient.removeQueries({ predicate: (query) => notSession(query) && query.getObserversCount() === 0 });
  // Emptied at once (the screen shows its loading state), then read again as a visitor.
  const readAgain = queryClient.resetQueries({ predicate: notSession }).catch(() => undefined);
  await savePersistedQueryCacheNow();
  await readAgain;
}
