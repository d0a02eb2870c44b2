import type { QueryClient } from '@tanstack/react-query';
import { createBrowserHistory, type AnyRoute } from '@tanstack/react-router';
import { forgetCarriedByPage } from '../../lib/carried-by-page.ts';
import { trackVisitHistory } from '../../lib/visit-history.ts';
import { yieldToBrowser } from '../../lib/yield-to-browser.ts';
import { startHostPlatform } from '../host/start.ts';
import { createAppRouter, type AppRouter } from '../router.tsx';

/** The history, the router (its route tree processed) and what follows it, each in a task of its own. */
export async function startRouter(queryClient: QueryClient, serverRendered: boolean): Promise<AppRouter> {
  const history = createBrowserHistory();
  trackVisitHistory(history);
  await yieldToBrowser();
  const router = createAppRouter({ queryClient, history, keepFirstScroll: serverRendered });
  await yieldToBrowser();
  startHostPlatform(queryClient, router);
  // What the page carried shows at once wherever its first screen renders it, hydrated part by
  // part (a Suspense boundary hydrates after the page around it is up); a later
  // visit of the same page, after going elsewhere, is an ordinary one.
  const stopForgetting = router.subscribe('onBeforeNavigate', (event) => {
    if (!event.fromLocation || !event.pathChanged) return;
    stopForgetting();
    forgetCarriedByPage();
  });
  return router;
}

/**
 * Before hydrating the server's first screen: the route's matches loaded, so the first render is
 * a whole page (what it shows is in the cache: this loads the page's code alone). Before them the
 * router renders an empty page, which would flash between the server's posts and ours.
 */
export async function loadServerRenderedPage(router: AppRouter): Promise<void> {
  // / is sent on to /home (routes/redirects.ts), whose screen the server rendered: go there now,
  // as that redirect does (a redirect while loading waits for the router to be mounted).
  if (router.state.location.pathname === '/') router.history.replace(router.buildLocation({ to: '/home' }).href);
  await yieldToBrowser();
  // The page's code (a lazy route's chunk, its stylesheets linked), then its load, each in a task of its own.
  const routes = router.routesById as Record<string, AnyRoute>;
  await Promise.all(router.matchRoutes(router.state.location).map((match) => router.loadRouteChunk(routes[match.routeId]!))).catch(() => undefined);
  await yieldToBrowser();
  await router.load().catch(() => undefined);
  // The load's last part (its loaders' calls made) and the hydration's start, each a task of its own.
  await yieldToBrowser();
}
