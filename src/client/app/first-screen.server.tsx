/**
 * The server's render of a first screen: the page of a navigation to /home, a
 * post or a user centre shows the layout and what that page shows first (the first posts, the
 * post, the profile and its first posts) from its HTML, before the app's entry has loaded and
 * run. Built on its own (`vite build --ssr`, vite.config.ts, dist/ssr) and loaded by the server
 * (src/server/http/first-screen.ts); the client's first-visit JS carries none of it.
 *
 * The same components as the client, with what the client has at its first render: the router at
 * the page's address, a query cache holding only the reads the page carries (everything else,
 * the session check included, still on its way, so the header holds its place as it does then),
 * and the stores' defaults (nothing read from localStorage: what depends on it, such as the
 * header's AI entry once the widget was closed, comes with the client).
 *
 * The layout follows the viewport's width (platform/layout-store.ts), which a server cannot know:
 * it renders the one the user agent suggests (a phone or tablet: mobile), inside a wrapper that
 * layout.css shows only where the same media query picks that layout. A desktop browser in a
 * narrow window (or a tablet held wide) gets the page as before, filled by the script.
 *
 * The client hydrates this (app/first-screen-hydration.ts): its first render is made by the same
 * clock (RENDERED_AT_ATTRIBUTE, China Standard Time), layout and stores' first states, and the
 * router renders as for a page it rendered on the server (no boundary of its own around the
 * matches). A render by the router's server rendering would carry inline scripts, which the
 * page's Content-Security-Policy refuses: this one has none (its scroll restoration is off).
 */
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { FIRST_SCREEN_CLASS, RENDERED_AT_ATTRIBUTE, type FirstReadAnswer, type FirstScreenRender } from '#shared/first-screen.ts';
import { CHINA_UTC_OFFSET_MINUTES } from '#shared/timestamp.ts';
import { readFirstScreenBy } from '../format/time.ts';
import { detectEnvironment, renderEnvironmentOnServer } from '../platform/environment.ts';
import { renderFirstScreenLayout } from '../platform/layout-store.ts';
import { adoptServerConfig } from '../platform/runtime-config.ts';
import { forgetCarriedByPage } from '../lib/carried-by-page.ts';
import { listedPosts } from '../entities/post/queries.ts';
import { cardsReady } from '../features/feed/post-parts.ts';
import { putFirstRead } from './first-read.ts';
import { createAppRouter } from './router.tsx';


/** The instants a first screen is rendered by: whole minutes. */
const RENDERED_AT_STEP_MS = 60_000;

// Nothing here may call the network: a query the page does not carry never runs (offline, a
// query of this client's default network mode waits), and stays pending, as it is while the
// client's first call is on its way. This module's query library is its own (dist/ssr).
onlineManager.setOnline(false);

/** A query cache as the client's is at its first render: the reads the page carries, never stale. */
function firstRenderQueryClient(reads: readonly FirstReadAnswer[]): QueryClient {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity, staleTime: Infinity } } });
  for (const read of reads) putFirstRead(queryClient, read);
  return queryClient;
}

/**
 * One render at a time: they share the modules' stores (layout, environment, configuration),
 * and a render is work on the one thread (a few ms), which renders side by side would not finish
 * sooner. At most this many wait: beyond, a page goes without (the client renders it), rather
 * than wait behind them.
 */
export const MAX_WAITING_RENDERS = 8;
let previousRender: Promise<unknown> = Promise.resolve();
let waiting = 0;

/**
 * The HTML inside #root, or '' when anything went wrong (an error in any component, a render
 * that took too long): the page is then served as before and the client renders it all.
 */
export const renderFirstScreen: FirstScreenRender = (input) => {
  if (waiting >= MAX_WAITING_RENDERS) return Promise.resolve('');
  waiting++;
  const render = previousRender.then(() => {
    waiting--;
    return renderOne(input);
  });
  previousRender = render.catch(() => undefined);
  return render;
};

const renderOne: FirstScreenRender = async ({ path, reads, config, userAgent, limitMs }) => {
  adoptServerConfig(config);
  const isMobile = detectEnvironment(userAgent).isMobileDevice;
  // The modules' own stores, set for this render (one at a time: renderFirstScreen).
  renderFirstScreenLayout(isMobile);
  renderEnvironmentOnServer(userAgent);
  // Times as the platform's readers' clocks show them, whatever the server's time zone; the
  // client hydrates by the same instant (RENDERED_AT_ATTRIBUTE) and zone. The start of the
  // minute (readable times count minutes): a page unchanged within it is the same page, which
  // revalidates as a 304 (its ETag is its content's).
  const now = Date.now();
  const renderedAt = now - (now % RENDERED_AT_STEP_MS);
  readFirstScreenBy({ now: renderedAt, utcOffsetMinutes: CHINA_UTC_OFFSET_MINUTES });
  const queryClient = firstRenderQueryClient(reads);
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [path] }) });
  // Its server rendering writes an inline script that restores the scroll position: the client's job.
  router.update({ ...router.options, scrollRestoration: false });
  // A loader that waits for a query the page does not carry would wait for ever, and every
  // render after it: its wait ends (the query cancelled), and so does this render.
  const limit = setTimeout(() => void queryClient.cancelQueries(), limitMs);
  try {
    await router.load();
    // A redirect (the client would follow it before rendering) or a route that did not load: no render.
    if (router.state.location.href !== path || router.state.matches.some((match) => match.status !== 'success')) return '';
    // The cards' code here before the render, as the client's first render waits for it
    // (start/first-screen-data.ts): a card's text that waited inside the render would sit in a
    // Suspense boundary of its own, which the client's render has not, and the hydration fails.
    await cardsReady(listedPosts(queryClient));
    let failed = false;
    const { prelude } = await prerender(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
      {
        onError: () => void (failed = true),
        signal: AbortSignal.timeout(limitMs),
        // Every boundary inline, none sent apart to be moved in by a script (the page runs no inline script).
        progressiveChunkSize: Infinity,
      },
    );
    const html = await new Response(prelude).text();
    // Anything left to a script (a boundary still pending) would stay a fallback: no render then.
    if (failed || /<script|<template/i.test(html)) return '';
    return `<div class="${isMobile ? FIRST_SCREEN_CLASS.mobile : FIRST_SCREEN_CLASS.pc}" ${RENDERED_AT_ATTRIBUTE}="${renderedAt}">${html}</div>`;
  } finally {
    clearTimeout(limit);
    queryClient.clear();
    forgetCarriedByPage();
  }
};
