/**
 * The client's entry: one query client whose error hook turns failures into UI, the
 * persisted cache restored, layout and online tracking, the service worker, and the router.
 */
// The global styles first: every component's own stylesheet comes after them in the cascade.
import '../styles/tokens.css';
import '../styles/base.css';
import '../styles/pages.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { reportCaughtError } from './caught-errors.ts';
import { firstScreenHydrated, hydratableFirstScreen, onHydrationMismatch } from './first-screen-hydration.ts';
import { afterFirstScreen } from './start/after-first-screen.ts';
import { adoptFirstScreenData } from './start/first-screen-data.ts';
import { followPageState } from './start/page-state.ts';
import { createAppQueryClient } from './start/query-client.ts';
import { loadServerRenderedPage, startRouter } from './start/router.ts';
import { adoptReferrerParams } from '../lib/carry-params.ts';
import { answerEarlyTaps, takeEarlyTaps } from '../lib/early-acts.ts';
import { yieldToBrowser } from '../lib/yield-to-browser.ts';

async function start(): Promise<void> {
  // The start comes in pieces, each its own task (the modules' evaluation, the caches and the
  // session, the router, its first load), rather than one long task after the first paint.
  await yieldToBrowser();
  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');

  const queryClient = createAppQueryClient();
  followPageState(queryClient);
  const { restore, restoreLater, cardsShown } = await adoptFirstScreenData(queryClient);

  adoptReferrerParams();
  await yieldToBrowser();
  // The server rendered the first screen into the page (app/first-screen.server.tsx): the client
  // hydrates it where the viewport shows it, and renders its own page in its place otherwise.
  const serverRendered = rootElement.firstElementChild !== null;
  const firstScreen = serverRendered ? hydratableFirstScreen(rootElement) : null;
  const router = await startRouter(queryClient, serverRendered);
  // The first render hydrates the server's first screen (or replaces it), so it must be a whole page.
  if (serverRendered) await loadServerRenderedPage(router);

  await cardsShown;
  const app = (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
  // The page's taps are kept (lib/early-acts-catcher.ts) until the app's first render is
  // committed, then answered: React's own listeners come before, while the page is not yet its.
  afterFirstScreen(router, {
    rendered() {
      if (firstScreen) firstScreenHydrated(firstScreen);
      answerEarlyTaps(takeEarlyTaps());
    },
    atLatest() {
      if (restoreLater) void restore();
    },
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

void start();
