/**
 * History routing offline: every navigation inside the app is answered with the precached
 * /index.html, so a deep link (/topic/list, /message/detail/1) opens without the network. Paths
 * the server owns (API, images, docs, WeChat helpers) and files (src/shared/static-paths.ts:
 * /robots.txt, /assets/nope.js, /a/b.css) are left to the network: a missing file is the
 * server's 404, never the app shell. A share to the installed app is share-target.ts's.
 */
import { createHandlerBoundToURL } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { FILE_PATH_PATTERN } from '#shared/static-paths.ts';

/** Tested by Workbox against the path and query of the navigation. */
export const NAVIGATION_DENYLIST: RegExp[] = [
  /^\/serv(\/|$)/,
  /^\/img(\/|$)/,
  /^\/docs(\/|$)/,
  /^\/wxmisc(\/|$)/,
  FILE_PATH_PATTERN,
];

/** Call after the precache is set up: the handler reads /index.html from it. */
export function setupNavigation(): void {
  registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }));
}
