/**
 * The feed's first page inside the page of a navigation to /home (src/shared/first-screen.ts),
 * and the first screen rendered from it into #root (src/client/app/first-screen.server.tsx).
 * It is read through the API itself (inject, with the navigation's cookie, address and agent),
 * so it is exactly what the client's own first call would answer: the same viewer (likes and
 * votes), limits, serializer and errors. Anything but a prompt success leaves the page as it
 * is, and the client then calls as before: a first screen is never slower than without it.
 *
 * The render is the build's (dist/ssr beside dist/client, `npm run build`): the page paints the
 * header and the first posts before any script has run. Without that file, or when it fails, the
 * page carries the first page alone, as before.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Envelope } from '#shared/envelope.ts';
import { endpoints } from '#shared/endpoints.ts';
import {
  FIRST_FEED_PAGE_ELEMENT_ID,
  FIRST_FEED_PAGE_INPUT,
  FIRST_FEED_PAGE_PATHS,
  START_AFTER_FIRST_PAINT_PATH,
  type FirstScreenModule,
  type FirstScreenRender,
} from '#shared/first-screen.ts';
import type { Paged, Post } from '#shared/schemas.ts';
import { jsonTextForScript } from './client-page.ts';

/** Longer than a healthy read takes (a few ms), short enough that a slow database costs little. */
export const FIRST_FEED_PAGE_WAIT_MS = 400;

export function carriesFirstFeedPage(request: FastifyRequest): boolean {
  return request.method === 'GET' && FIRST_FEED_PAGE_PATHS.includes(request.url.split('?')[0] ?? '');
}

/** The server render's file in a build: beside the client's folder. */
export const firstScreenRenderPath = (clientDir: string) => join(clientDir, '..', 'ssr', 'first-screen.js');

/** The build's render of the first screen; undefined when the build has none (or it cannot load). */
export async function loadFirstScreenRender(app: FastifyInstance, clientDir: string): Promise<FirstScreenRender | undefined> {
  const path = firstScreenRenderPath(clientDir);
  if (!existsSync(path) || !existsSync(join(clientDir, START_AFTER_FIRST_PAINT_PATH))) {
    app.log.warn({ path }, 'the build has no render of the first screen: /home paints once its script has run');
    return undefined;
  }
  try {
    // A file of the build, not a source module: no layer rule applies to what it loads.
    // eslint-disable-next-line no-restricted-syntax -- the path is the build's, known only at run time
    return ((await import(pathToFileURL(path).href)) as FirstScreenModule).renderFirstScreen;
  } catch (error) {
    app.log.error({ err: error, path }, 'the render of the first screen could not be loaded');
    return undefined;
  }
}

export interface FirstFeedPage {
  /** The <script type="application/json"> element with channel/posts's answer. */
  element: string;
  page: Paged<Post>;
}

/** channel/posts's first page for this navigation, or undefined when there is none to give. */
export async function readFirstFeedPage(app: FastifyInstance, request: FastifyRequest): Promise<FirstFeedPage | undefined> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const name of ['cookie', 'user-agent'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([
    app.inject({
      method: 'POST',
      url: endpoints.channelPosts.path,
      headers,
      remoteAddress: request.ip,
      payload: JSON.stringify(FIRST_FEED_PAGE_INPUT),
    }),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), FIRST_FEED_PAGE_WAIT_MS))),
  ]).catch((error: unknown) => {
    request.log.warn({ err: error }, 'the first feed page could not be read for the page');
    return undefined;
  });
  clearTimeout(timer);
  if (answer?.statusCode !== 200) return undefined;
  const envelope = JSON.parse(answer.body) as Envelope<Paged<Post>>;
  if (envelope.code !== 0) return undefined;
  return {
    element: `<script id="${FIRST_FEED_PAGE_ELEMENT_ID}" type="application/json">${jsonTextForScript(answer.body)}</script>`,
    page: envelope.data,
  };
}

/** The build's entry: `<script type="module" crossorigin src="/assets/index-….js"></script>`. */
const ENTRY_SCRIPT = /<script type="module"( crossorigin)? src="(\/assets\/[^"]+\.js)"><\/script>/g;

/**
 * The page's entry started after the first paint, by public/start-after-first-paint.js (kept tiny:
 * every first visit loads it), which finds it in its own data-app-entry. Neither loaded nor run
 * before: the page's bytes (its posts, the avatars) have the connection to themselves until the
 * first screen is painted, and the 130 KB entry then comes while the reader reads. As the page's
 * module script, the entry would load alongside the page and run as soon as it arrived: on a fast
 * network before the first paint, which then waited for the whole app to evaluate and render.
 * (Lighthouse's simulation counts every script that finished loading before the paint as part of
 * its wait, preloaded at any priority.) A hidden page (a tab opened in the background) has no
 * frame to wait for: the app starts at once. undefined when the page has not exactly one entry.
 */
export function startingAfterFirstPaint(page: string): string | undefined {
  const entries = [...page.matchAll(ENTRY_SCRIPT)];
  if (entries.length !== 1) return undefined;
  return page.replace(ENTRY_SCRIPT, (_script, _crossorigin, src: string) => `<script type="module" src="${START_AFTER_FIRST_PAINT_PATH}" data-app-entry="${src}"></script>`);
}

/**
 * The page with the first screen rendered inside its #root, its entry started after the first
 * paint, or undefined when the render failed (the page is then served without it). The HTML is
 * React's, from our components: text escaped.
 */
export async function withFirstScreen(
  page: string,
  render: FirstScreenRender,
  input: Parameters<FirstScreenRender>[0],
  request: FastifyRequest,
): Promise<string | undefined> {
  try {
    const starting = startingAfterFirstPaint(page);
    if (!starting || !starting.includes('<div id="root"></div>')) return undefined;
    const html = await render(input);
    if (!html) return undefined;
    // A replacement function: a `$&` in a post stays text.
    return starting.replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
  } catch (error) {
    request.log.warn({ err: error }, 'the first screen could not be rendered for the page');
    return undefined;
  }
}
