/**
 * What depends on where the page runs and on the device, started once from main.tsx. Each
 * part's code loads only where and when it is needed (SPEC.md sections 1 to 4 and 7): WeChat's
 * JS-SDK in the WeChat browser, the mini-program bridge in a mini-program web view, the native
 * bridge in the app, pull to refresh on touch screens, the new-posts check with its first run,
 * the tracking client with the first event (or now, when an earlier visit left events unsent).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { sessionKeys } from '../../entities/session/queries.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { currentEnvironment, type Environment } from '../../platform/environment.ts';
import { sendKeptEvents, setTrackingUser } from '../../platform/tracking.ts';
import type { AppRouter } from '../router.tsx';

export interface HostContext {
  queryClient: QueryClient;
  router: AppRouter;
  env: Environment;
}

/** How often a feed on screen looks for newer posts while the page is visible. */
export const NEW_POSTS_CHECK_MS = 60_000;
/** No check this soon after the last (or after start: the feed was just loaded). */
export const NEW_POSTS_MIN_GAP_MS = 5_000;

const loadFreshFeed = () => loadChunk(() => import('./fresh-feed.ts'));

export function startHostPlatform(queryClient: QueryClient, router: AppRouter): void {
  setTrackingUser(() => {
    const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
    return { is_login: !!user, uid: user?.uid ?? 0 };
  });
  sendKeptEvents();

  // 有 N 条新动态: on focus, on coming back to the tab or online, and every minute while visible.
  let lastCheck = Date.now();
  const checkNewPosts = () => {
    if (document.visibilityState !== 'visible' || !/^\/(home|follow|good)$/.test(location.pathname)) return;
    if (Date.now() - lastCheck < NEW_POSTS_MIN_GAP_MS) return;
    lastCheck = Date.now();
    loadFreshFeed().then((m) => m.checkNewPosts(queryClient, router), () => undefined);
  };
  setInterval(checkNewPosts, NEW_POSTS_CHECK_MS);
  window.addEventListener('focus', checkNewPosts);
  window.addEventListener('online', checkNewPosts);
  document.addEventListener('visibilitychange', checkNewPosts);

  if (navigator.maxTouchPoints > 0) {
    loadFreshFeed().then((m) => m.startPullToRefresh(queryClient, router), () => undefined);
  }

  const env = currentEnvironment();
  if (env.kind !== 'browser') {
    // html[data-host] says the host's bridge is in place (styles and tests may wait for it).
    loadChunk(() => import('./bridges.ts'))
      .then((module) => module.startHost({ queryClient, router, env }))
      .then(
        () => (document.documentElement.dataset.host = env.kind),
        (error: unknown) => console.error(error),
      );
  }
}
