/**
 * History routing offline: every navigation inside the app is answered with the precached
 * /index.html, so a deep link (/topic/list, /message/detail/1) opens without the network. Paths
 * the server owns (API, images, docs, WeChat helpers) and plain files are left to the network.
 */
import { createHandlerBoundToURL } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

export const NAVIGATION_DENYLIST: RegExp[] = [
  /^\/serv(\/|$)/,
  /^\/img(\/|$)/,
  /^\/docs(\/|$)/,
  /^\/wxmisc(\/|$)/,
  // Files at the top level (robots.txt, sw.js, manifest.webmanifest) and under /icons, /assets.
  /^\/[^/]+\.[a-z0-9]+$/i,
  /^\/(icons|assets)\//,
];

/** Call after the precache is set up: the handler reads /index.html from it. */
export function setupNavigation(): void {
  registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }));
}
