/**
 * The reads a navigation's first screen shows (src/shared/first-screen.ts: /home's first feed
 * page, a post, a profile and its first posts) inside its page, and the first screen rendered
 * from them into #root (src/client/app/first-screen.server.tsx). Each is read through the API itself (inject, with the
 * navigation's cookie, address and agent), so it is exactly what the client's own first call
 * would answer: the same viewer (likes and votes), limits, serializer and errors. Anything but a
 * prompt success leaves the page as it is, and the client then calls as before: a first screen
 * is never slower than without it.
 *
 * The render is the build's (dist/ssr beside dist/client, `npm run build`): the page paints the
 * header and what the page shows first before any script has run. Without that file, or when it
 * fails, the page carries the read alone, as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Envelope } from '#shared/envelope.ts';
import { endpoints } from '#shared/endpoints.ts';
import {
  FIRST_READ_ATTRIBUTE,
  FIRST_SCREEN_PAGE_MODULE,
  firstScreenOf,
  START_AFTER_FIRST_PAINT_PATH,
  type FirstRead,
  type FirstReadAnswer,
  type FirstScreenModule,
  type FirstScreenPage,
  type FirstScreenPlan,
  type FirstScreenRender,
} from '#shared/first-screen.ts';
import { inlineStylesheets, jsonTextForScript, linksStylesheetToFetch } from './client-page.ts';

/** How long a page waits for its first screen (config.ts: FIRST_SCREEN_READ_WAIT_MS, FIRST_SCREEN_RENDER_LIMIT_MS). */
export interface FirstScreenBudget {
  /** For each read the page carries; a read still on its way then leaves the page as it is. */
  readWaitMs: number;
  /** For the render; a render still going then leaves #root empty. */
  renderLimitMs: number;
}

/** The first screen the page of this navigation carries, or undefined (not a GET, a page without one). */
export function firstScreenOfRequest(request: FastifyRequest): FirstScreenPlan | undefined {
  return request.method === 'GET' ? firstScreenOf(request.url.split('?')[0] ?? '') : undefined;
}

/** The server render's file in a build: beside the client's folder. */
export const firstScreenRenderPath = (clientDir: string) => join(clientDir, '..', 'ssr', 'first-screen.js');

/** Vite's manifest of the client build (dist/client/.vite/manifest.json): what each source module became. */
export type BuildManifest = Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>;

/**
 * The chunks that load with a module's code: its own and those it imports, those first, as the
 * browser runs them; the entry's left out (every page loads it).
 */
function chunksOf(manifest: BuildManifest, module: string, skip: ReadonlySet<string> = new Set()): BuildManifest[string][] {
  const chunks: BuildManifest[string][] = [];
  const seen = new Set(skip);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (seen.has(key) || !chunk || chunk.isEntry) return;
    seen.add(key);
    chunk.imports?.forEach(visit);
    chunks.push(chunk);
  };
  visit(module);
  return chunks;
}

/** The stylesheets (hrefs) that load with a module's code, as the browser would apply them. */
export function stylesheetsOf(manifest: BuildManifest, module: string): string[] {
  return [...new Set(chunksOf(manifest, module).flatMap((chunk) => (chunk.css ?? []).map((css) => `/${css}`)))];
}

/** The scripts (hrefs) of a module's code: its chunk and every chunk it imports but those the entry imports (the page preloads them). */
export function scriptsOf(manifest: BuildManifest, module: string): string[] {
  const entryImports = new Set(Object.values(manifest).flatMap((chunk) => (chunk.isEntry ? (chunk.imports ?? []) : [])));
  return chunksOf(manifest, module, entryImports).map((chunk) => `/${chunk.file}`);
}

/** The build's render of first screens, with the stylesheets of each page it renders. */
export interface FirstScreen {
  render: FirstScreenRender;
  /** <style> elements, by page: what its page's code would load (see FIRST_SCREEN_PAGE_MODULE). */
  pageStyles: Partial<Record<FirstScreenPage, string>>;
  /** The scripts of each page's code, fetched beside the entry (see startingAfterFirstPaint). */
  pageScripts: Partial<Record<FirstScreenPage, string[]>>;
}

/** The build's render of the first screen; undefined when the build has none (or it cannot load). */
export async function loadFirstScreen(
  app: FastifyInstance,
  clientDir: string,
  readAsset: (href: string) => string | undefined,
): Promise<FirstScreen | undefined> {
  const path = firstScreenRenderPath(clientDir);
  if (!existsSync(path) || !existsSync(join(clientDir, START_AFTER_FIRST_PAINT_PATH))) {
    app.log.warn({ path }, 'the build has no render of the first screen: pages paint once their script has run');
    return undefined;
  }
  let render: FirstScreenRender;
  try {
    // A file of the build, not a source module: no layer rule applies to what it loads.
    // eslint-disable-next-line no-restricted-syntax -- the path is the build's, known only at run time
    render = ((await import(pathToFileURL(path).href)) as FirstScreenModule).renderFirstScreen;
  } catch (error) {
    app.log.error({ err: error, path }, 'the render of the first screen could not be loaded');
    return undefined;
  }
  const manifestPath = join(clientDir, '.vite', 'manifest.json');
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as BuildManifest) : {};
  const pageStyles: FirstScreen['pageStyles'] = {};
  const pageScripts: FirstScreen['pageScripts'] = {};
  for (const [page, module] of Object.entries(FIRST_SCREEN_PAGE_MODULE) as [FirstScreenPage, string | undefined][]) {
    if (!module) continue;
    pageScripts[page] = scriptsOf(manifest, module);
    const hrefs = stylesheetsOf(manifest, module);
    // Inline, each still named by a link never fetched nor applied: the page’s code, once loaded, adds none of them again.
    const styles = inlineStylesheets(hrefs.map((href) => `<link rel="stylesheet" href="${href}">`).join(''), readAsset);
    // A page whose styles are unknown, or not all readable, is left to the client: unstyled, it would move.
    if (hrefs.length > 0 && !linksStylesheetToFetch(styles)) pageStyles[page] = styles;
    else app.log.warn({ page, module }, 'the stylesheets of this page are not in the build: it paints once its script has run');
  }
  return { render, pageStyles, pageScripts };
}

export interface CarriedRead {
  /** The <script type="application/json"> element with the call's answer (the envelope). */
  element: string;
  answer: FirstReadAnswer;
}

/** The read's answer for this navigation, or undefined when there is none to give. */
export async function readForPage(app: FastifyInstance, request: FastifyRequest, read: FirstRead, waitMs: number): Promise<CarriedRead | undefined> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const name of ['cookie', 'user-agent'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let timer: NodeJS.Timeout | undefined;
  const answer = await Promise.race([
    app.inject({
      method: 'POST',
      url: endpoints[read.endpoint].path,
      headers,
      remoteAddress: request.ip,
      payload: JSON.stringify(read.input),
    }),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs))),
  ]).catch((error: unknown) => {
    request.log.warn({ err: error, endpoint: read.endpoint }, 'the first screen\'s read could not be made for the page');
    return undefined;
  });
  clearTimeout(timer);
  if (answer?.statusCode !== 200) return undefined;
  const envelope = JSON.parse(answer.body) as Envelope<FirstReadAnswer['data']>;
  if (envelope.code !== 0) return undefined;
  return {
    element: `<script type="application/json" ${FIRST_READ_ATTRIBUTE}="${read.endpoint}">${jsonTextForScript(answer.body)}</script>`,
    answer: { ...read, data: envelope.data } as FirstReadAnswer,
  };
}

/** The build's entry: `<script type="module" crossorigin src="/assets/index-….js"></script>`. */
const ENTRY_SCRIPT = /<script type="module"( crossorigin)? src="(\/assets\/[^"]+\.js)"><\/script>/g;

/**
 * The page's entry started after the first paint, by public/start-after-first-paint.js (kept tiny:
 * every first visit loads it), which finds it in its own data-app-entry. Neither loaded nor run
 * before: the page's bytes (its posts, the avatars) have the connection to themselves until the
 * first screen is painted, and the entry, by far the largest file, then comes while the reader
 * reads. As the page's module script, the entry would load alongside the page and run as soon as
 * it arrived: on a fast network before the first paint, which then waited for the whole app to
 * evaluate and render.
 * (Lighthouse's simulation counts every script that finished loading before the paint as part of
 * its wait, preloaded at any priority.) A hidden page (a tab opened in the background) has no
 * frame to wait for: the app starts at once. The page's own code (`pageScripts`, in
 * data-page-scripts) is fetched by the same script beside the entry: otherwise the entry would
 * ask for the page's chunk once it ran, and that chunk for its imports once it arrived, a round
 * trip each before the page can hydrate. undefined when the page has not exactly one entry.
 */
export function startingAfterFirstPaint(page: string, pageScripts: readonly string[] = []): string | undefined {
  const entries = [...page.matchAll(ENTRY_SCRIPT)];
  if (entries.length !== 1) return undefined;
  const scripts = pageScripts.length > 0 ? ` data-page-scripts="${pageScripts.join(' ')}"` : '';
  return page.replace(
    ENTRY_SCRIPT,
    (_script, _crossorigin, src: string) => `<script type="module" src="${START_AFTER_FIRST_PAINT_PATH}" data-app-entry="${src}"${scripts}></script>`,
  );
}

/**
 * The page with the first screen rendered inside its #root, the styles of its page's code at the
 * end of its head, its entry started after the first paint, or undefined when the render failed
 * or the page's styles are unknown (the page is then served without it). The HTML is React's,
 * from our components: text escaped.
 */
export async function withFirstScreen(
  page: string,
  first: FirstScreen,
  input: Parameters<FirstScreenRender>[0],
  request: FastifyRequest,
): Promise<string | undefined> {
  try {
    const styles = FIRST_SCREEN_PAGE_MODULE[input.page] ? first.pageStyles[input.page] : '';
    const starting = startingAfterFirstPaint(page, first.pageScripts[input.page]);
    if (styles === undefined || !starting || !starting.includes('<div id="root"></div>') || !starting.includes('</head>')) return undefined;
    const html = await first.render(input);
    if (!html) return undefined;
    // Replacement functions: a `$&` in a post stays text.
    return starting.replace('</head>', () => `${styles}</head>`).replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
  } catch (error) {
    request.log.warn({ err: error }, 'the first screen could not be rendered for the page');
    return undefined;
  }
}
