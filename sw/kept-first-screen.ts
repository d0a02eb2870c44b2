/**
 * /home's first screen kept for the next start. The server's page of /home
 * carries the feed's first page and the first screen rendered from it
 * (src/server/http/first-screen.ts); the worker keeps the latest copy of that page and answers a
 * start of /home with it, so the posts paint from the HTML before any script has run, offline
 * too (on the underground), instead of after the whole app has started from the bare shell. The
 * app then refetches what the copy carries (as old as the copy: src/client/app/first-read.ts).
 *
 * The copy is fetched when this worker takes over and again, in the background, at every start
 * of /home and when the reader leaves the app (hides it); logging out drops it with the cached
 * answers (the next person must not see the last one's likes). A page names the build's files it
 * starts (its entry): one whose files are not all in this worker's precache belongs to another
 * version, and is neither kept nor served (the shell is, as without a copy).
 */
import { createHandlerBoundToURL, matchPrecache } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { FIRST_READ_ATTRIBUTE, KEPT_AT_ATTRIBUTE } from '#shared/first-screen.ts';
import { KEPT_FIRST_SCREEN_CACHE_NAME, messageTypeOf, MSG_CLEAR_API_CACHE, MSG_KEEP_FIRST_SCREEN } from './constants.ts';
import { keepablePage } from './keepable-page.ts';

declare const self: ServiceWorkerGlobalScope;

/** Where the copy is kept, and what is fetched to make it. */
const KEPT_PAGE_PATH = '/home';
/** On the kept copy: when this worker kept it (ms since 1970). */
const KEPT_AT_HEADER = 'x-kept-at';

/**
 * The page's headers (its Content-Security-Policy above all) for the text kept: without how the
 * network sent it (compressed, its length then), which no longer describes that text.
 */
function headersOfKept(headers: Headers): Headers {
  const kept = new Headers(headers);
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding']) kept.delete(name);
  return kept;
}

const inPrecache = async (path: string) => (await matchPrecache(path)) !== undefined;

/** Bumped when the copy is dropped (a logout): a fetch begun before, with the last user's cookie, keeps nothing. */
let generation = 0;
/** The copy being fetched, if one is: asked again meanwhile (a start of /home as the last page hides), it is not fetched twice. */
let fetching: Promise<void> | undefined;

/** Fetches /home as the server serves it (with the reader's cookie) and keeps it if it can be; never fails. */
function keepFreshCopy(): Promise<void> {
  fetching ??= fetchCopy().finally(() => (fetching = undefined));
  return fetching;
}

async function fetchCopy(): Promise<void> {
  const started = generation;
  // What the page carries is as old as its request.
  const requestedAt = Date.now();
  try {
    const response = await fetch(KEPT_PAGE_PATH, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    const html = await keepablePage(response, inPrecache);
    if (html === undefined || started !== generation) return;
    const cache = await caches.open(KEPT_FIRST_SCREEN_CACHE_NAME);
    const headers = headersOfKept(response.headers);
    headers.set(KEPT_AT_HEADER, String(requestedAt));
    await cache.put(KEPT_PAGE_PATH, new Response(html, { headers }));
  } catch {
    // Offline, or the server is down: the copy stays as it was.
  }
}

/**
 * The kept copy, if there is one this worker can serve, its reads saying when it was kept (the
 * client takes them as fetched then: src/client/app/first-read.ts).
 */
async function keptCopy(): Promise<Response | undefined> {
  const cache = await caches.open(KEPT_FIRST_SCREEN_CACHE_NAME);
  const kept = await cache.match(KEPT_PAGE_PATH, { ignoreVary: true, ignoreSearch: true });
  const keptAt = Number(kept?.headers.get(KEPT_AT_HEADER));
  if (!kept || !Number.isSafeInteger(keptAt)) return undefined;
  const html = await keepablePage(kept.clone(), inPrecache);
  if (html === undefined) return undefined;
  const dated = html.replaceAll(` ${FIRST_READ_ATTRIBUTE}="`, () => ` ${KEPT_AT_ATTRIBUTE}="${keptAt}" ${FIRST_READ_ATTRIBUTE}="`);
  const headers = headersOfKept(kept.headers);
  headers.delete(KEPT_AT_HEADER);
  return new Response(dated, { headers });
}

/** Call before the other navigations' route: a start of /home gets the copy, else the shell. */
export function setupKeptFirstScreen(): void {
  const shell = createHandlerBoundToURL('/index.html');
  registerRoute(
    ({ url, request }) => request.mode === 'navigate' && url.pathname === KEPT_PAGE_PATH,
    async (options) => {
      options.event.waitUntil(keepFreshCopy());
      return (await keptCopy()) ?? shell(options);
    },
  );

  // A copy made by an earlier version names its files; a new worker starts from its own.
  self.addEventListener('activate', (event) => {
    const cleared = caches.delete(KEPT_FIRST_SCREEN_CACHE_NAME);
    event.waitUntil(cleared);
    // The first copy, not awaited by the activation: navigations would wait for it.
    void cleared.then(keepFreshCopy);
  });

  self.addEventListener('message', (event) => {
    const type = messageTypeOf(event.data);
    if (type === MSG_CLEAR_API_CACHE) {
      generation++;
      event.waitUntil(caches.delete(KEPT_FIRST_SCREEN_CACHE_NAME));
    }
    // The reader leaves the app (src/client/platform/pwa.ts): the next start shows what they
    // leave, their likes and posts of this visit included, rather than the feed as they came.
    if (type === MSG_KEEP_FIRST_SCREEN) event.waitUntil(keepFreshCopy());
  });
}
