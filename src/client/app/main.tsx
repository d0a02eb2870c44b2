/**
 * The client's entry: one query client whose error hook turns failures into UI, the
 * persisted cache restored, layout and online tracking, the service worker, and the router.
 */
// The global styles first: every component's own stylesheet comes after them in the cascade.
import '../styles/tokens.css';
import '../styles/base.css';
import '../styles/pages.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserHistory, RouterProvider, type AnyRoute } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { clientMessages } from '#shared/errors.ts';
import { applyAppEvents } from './apply-other-tabs.ts';
import { reportCaughtError } from './caught-errors.ts';
import type * as ErrorHandling from './handle-api-error.ts';
import { keepInstallOffer, useAppOffers } from './layout/app-offers.ts';
import { adoptReferrerParams } from '../lib/carry-params.ts';
import { installSession } from '../features/auth/install.ts';
import { knownViewer } from '../entities/session/queries.ts';
import { setWriteNotices, startOutbox } from '../entities/outbox/index.ts';
import { adoptStoredFirstFeedPage, keepFirstFeedPage } from '../entities/post/first-feed-page.ts';
import { listedPosts } from '../entities/post/cache.ts';
import { cardsReady } from '../features/feed/post-parts.ts';
import { adoptFirstReads } from './first-read.ts';
import { answerEarlyTaps, takeEarlyTaps } from '../lib/early-acts.ts';
import { firstScreenHydrated, hydratableFirstScreen, onHydrationMismatch } from './first-screen-hydration.ts';
import { forgetCarriedByPage } from '../lib/carried-by-page.ts';
import { loadChunk } from '../lib/chunk.ts';
import { yieldToBrowser } from '../lib/yield-to-browser.ts';
import { persistQueryCache } from '../lib/query-cache-persister.ts';
import { createQueryClient, followOnline } from '../lib/query-client.ts';
import { startLayoutTracking, useLayoutStore } from '../platform/layout-store.ts';
import { onlineSource, reportWorkerNetworkStatus, startOnlineTracking } from '../platform/online-store.ts';
import { registerServiceWorker } from '../platform/pwa.ts';
import { createAppRouter, type AppRouter } from './router.tsx';
import { trackVisitHistory } from '../lib/visit-history.ts';
import { startHostPlatform } from './host/start.ts';
import { suppressDoubleTap } from '../ui/double-tap.ts';
import { toast } from '../ui/toast/toast-store.ts';

/** Bump to drop caches persisted by an incompatible version. */
const CACHE_BUSTER = 'v1';
/** The longest the restore waits for the first screen (a render that failed must not keep the outbox from starting). */
const FIRST_SCREEN_WAIT_MS = 3000;

async function start(): Promise<void> {
  // The start comes in pieces, each its own task (the modules' evaluation, the caches and the
  // session, the router, its first load), rather than one long task after the first paint.
  await yieldToBrowser();
  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');

  // What a failure shows (a toast, the login popup for -1001 and -2000, the 452 notice) is
  // decided in handle-api-error.ts, which loads with the first failure.
  let errorHandling: Promise<typeof ErrorHandling> | undefined;
  const queryClient = createQueryClient({
    onError: (error, meta) => {
      errorHandling ??= loadChunk(() => import('./handle-api-error.ts')).then((handling) => {
        handling.setApiErrorActions({ login: session.login, loggedInElsewhere: session.loggedInElsewhere });
        return handling;
      });
      errorHandling.then(
        (handling) => handling.handleApiError(error, meta),
        () => (errorHandling = undefined),
      );
    },
  });
  applyAppEvents(queryClient);
  setWriteNotices(() => loadChunk(() => import('./write-notices.ts')).then((texts) => texts.writeNotices));
  const session = installSession(queryClient);

  startLayoutTracking();
  startOnlineTracking();
  // 网络异常: a toast once each time the network is lost, never one per failed request; the banner
  // (layout/OfflineBanner.tsx) stays while it lasts.
  followOnline(queryClient, onlineSource, () => toast.warning(clientMessages.offline));
  suppressDoubleTap();
  document.documentElement.dataset.layout = useLayoutStore.getState().isMobile ? 'mobile' : 'pc';
  useLayoutStore.subscribe((state) => {
    document.documentElement.dataset.layout = state.isMobile ? 'mobile' : 'pc';
  });

  registerServiceWorker({
    onNetworkStatus: reportWorkerNetworkStatus,
    onUpdateReady: (applyUpdate) => useAppOffers.setState({ applyUpdate, updateDismissed: false }),
  });
  keepInstallOffer();

  // The first screen renders at once from what the page carries (a first visit: /home's feed, a
  // post, a profile and its first posts; a start of /home: the page the service worker kept) or,
  // on /home, from the first page the last visit stored (offline too), and what an earlier visit
  // kept is restored once that screen is up (read alongside, it slowed the screen down as much as
  // it saved). Without either, the screen shows what the last visit saw, so the render waits for
  // the restore.
  keepFirstFeedPage(queryClient);
  const { pathname } = window.location;
  const carried = adoptFirstReads(queryClient, pathname);
  // After what the page carried: a kept page's feed gives way to a newer one this device stored.
  const stored = adoptStoredFirstFeedPage(queryClient, pathname);
  const firstScreenData = carried || stored;
  const restore = () => persistQueryCache(queryClient, { buster: CACHE_BUSTER, viewer: () => knownViewer(queryClient) }).then(() => startOutbox(queryClient));
  if (!firstScreenData) await restore();
  // The cards the first render shows are whole from the start, as the server's first screen has
  // them (the code they need, if any, comes beside the page's own).
  const cardsShown = cardsReady(listedPosts(queryClient));

  adoptReferrerParams();
  await yieldToBrowser();
  // The server rendered the first screen into the page (app/first-screen.server.tsx): the client
  // hydrates it where the viewport shows it, and renders its own page in its place otherwise.
  const serverRendered = rootElement.firstElementChild !== null;
  const firstScreen = serverRendered ? hydratableFirstScreen(rootElement) : null;
  // The history, the router (its route tree processed) and what follows it, each in a task of its own.
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

  // The first render hydrates the server's first screen (or replaces it), so it must be a whole
  // page, the route's matches already loaded (what it shows is in the cache: this loads the page's
  // code alone). Before them the router renders an empty page, which would flash between the
  // server's posts and ours.
  if (serverRendered) {
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

  await cardsShown;
  const app = (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
  // From here React hears the page's taps; those made before are answered once the page is the app's.
  const earlyTaps = takeEarlyTaps();
  afterFirstScreen(router, () => {
    if (firstScreen) firstScreenHydrated(firstScreen);
    answerEarlyTaps(earlyTaps);
    if (firstScreenData) void restore();
  });
  if (firstScreen) {
    // Rendered as the server renders it: the root match and the matches without a Suspense
    // boundary of their own, as the router does for a page it rendered on the server (its ssr).
    router.ssr = { manifest: undefined };
    // As a transition, the hydration yields to the browser every few ms (otherwise it is one task).
    startTransition(() => void hydrateRoot(firstScreen, app, { onRecoverableError: onHydrationMismatch, onCaughtError: reportCaughtError }));
    return;
  }
  const root = createRoot(rootElement, { onCaughtError: reportCaughtError });
  // As a transition, React yields to the browser every few ms while it builds the first
  // screen, instead of one long task (what Lighthouse's total blocking time counts).
  startTransition(() => root.render(app));
}

/** Once the first screen is rendered and painted (at the latest after FIRST_SCREEN_WAIT_MS). */
function afterFirstScreen(router: AppRouter, run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    stop();
    clearTimeout(timer);
    run();
  };
  const stop = router.subscribe('onRendered', () => requestAnimationFrame(() => setTimeout(once, 0)));
  const timer = setTimeout(once, FIRST_SCREEN_WAIT_MS);
}

void start();
