/**
 * What depends on where the page runs and on the device, started once from main.tsx. Each part's
 * code loads only where and when it is needed: WeChat's JS-SDK in the WeChat browser, the
 * mini-program bridge in a mini-program web view, the native bridge in the app, the feed's pull to
 * refresh and new-posts check (features/feed), the tracking client with the first event (or now,
 * when an earlier visit left events unsent).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { sessionKeys } from '../../entities/session/queries.ts';
import { startFreshFeed } from '../../features/feed/start-fresh-feed.ts';
import { loadChunk } from '../../lib/chunk.ts';
import { currentEnvironment, type Environment } from '../../platform/environment.ts';
import { sendKeptEvents, setTrackingUser } from '../../platform/tracking.ts';
import type { AppRouter } from '../router.tsx';

export interface HostContext {
  queryClient: QueryClient;
  router: AppRouter;
  env: Environment;
}

export function startHostPlatform(queryClient: QueryClient, router: AppRouter): void {
  setTrackingUser(() => {
    const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
    return { is_login: !!user, uid: user?.uid ?? 0 };
  });
  sendKeptEvents();

  startFreshFeed(queryClient, router);
  // html[data-live] says this page hears the live stream, its own or another tab's (tests wait for it).
  startLiveSoon(() =>
    loadChunk(() => import('./live.ts')).then(
      (live) => {
        live.startLive(queryClient, router);
        document.documentElement.dataset.live = 'on';
      },
      (error: unknown) => console.error(error),
    ),
  );

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

/** Without a scroll, the live stream starts this long after the page. */
const LIVE_START_LATEST_MS = 30_000;

/**
 * What happens elsewhere is told by the server as it happens (app/host/live.ts), from the reader's
 * first scroll, a return to the page, or a while after the start: the page has just read what it
 * shows, and a visit that only looks at the first screen loads none of it. Not at a tap: the tap
 * may be 刷新 of a new version, and code loaded then held its service worker from taking over.
 */
function startLiveSoon(start: () => void): void {
  const events = ['scroll', 'visibilitychange'] as const;
  const timer = setTimeout(begin, LIVE_START_LATEST_MS);
  function begin() {
    clearTimeout(timer);
    for (const name of events) window.removeEventListener(name, begin, true);
    start();
  }
  for (const name of events) window.addEventListener(name, begin, { capture: true, passive: true });
}
