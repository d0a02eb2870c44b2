/**
 * Serves the built PWA from the same origin as the API. Hashed assets are cached for a year;
 * index.html, the service worker and the manifest are revalidated so updates reach users.
 * Any other GET that is not an API call or a file gets index.html (history-mode routing); a
 * missing file (/assets/nope.js, /favicon-x.png: src/shared/static-paths.ts) is a 404. A share to
 * the installed app (/share-target) is redirected to the composer over /home. A navigation to
 * /home, a post or a user centre gets what its first screen shows inside the page, and that
 * screen rendered (first-screen.ts).
 *
 * index.html, manifest.webmanifest and sw.js carry the run-time configuration
 * (client-page.ts): they are rendered once here, at start, and served from memory. The page
 * (index.html and every navigation) carries the Content-Security-Policy of client-page.ts; the
 * service worker precaches it with its headers, so the page served offline has it too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientConfig } from '#shared/client-config.ts';
import { fail } from '#shared/envelope.ts';
import { ErrorCode } from '#shared/errors.ts';
import { isFilePath, SHARE_FIELDS, SHARE_TARGET_PATH, shareTargetLocation } from '#shared/static-paths.ts';
import { atBodyStart, contentSecurityPolicy, inlineScriptsOf, md5, renderClient } from './client-page.ts';
import type { FirstReadAnswer, FirstScreenPlan } from '#shared/first-screen.ts';
import { firstScreenOfRequest, loadFirstScreen, readForPage, withFirstScreen, type FirstScreen, type FirstScreenBudget } from './first-screen.ts';

const API_PREFIXES = ['/serv/', '/wxmisc/', '/img/', '/docs'];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/** The files rendered from the configuration, never read from disk per request. */
const RENDERED = ['index.html', 'manifest.webmanifest', 'sw.js'] as const;

export interface StaticClientOptions {
  /** The built client; undefined (or a folder without index.html): API only. */
  dir: string | undefined;
  config: ClientConfig;
  firstScreenBudget: FirstScreenBudget;
  /** Whether a page may carry its first screen now: not while the demo is seeded (its reads would wait for the seed). */
  firstScreenNow?: () => boolean;
}

function readIfPresent(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Sends one rendered file: no-cache with an ETag, so a revalidation costs a 304. */
function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
  type: string,
  etag: string,
  policy?: string,
  cacheControl = 'no-cache',
) {
  reply.header('cache-control', cacheControl).header('etag', etag).header('content-type', type);
  if (policy) reply.header('content-security-policy', policy);
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.send(body);
}

/**
 * The page with what its first screen shows in it (the feed's first page, a post, a profile and
 * its first posts), and that screen rendered from it inside #root (first-screen.ts). What it
 * carries depends on the caller (likes, votes), so it is private; its ETag is its content's, so
 * an unchanged page still revalidates as a 304.
 */
async function sendWithFirstScreen(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  plan: FirstScreenPlan,
  shell: string,
  policy: string,
  first: { screen: FirstScreen | undefined; config: ClientConfig; budget: FirstScreenBudget },
) {
  // Read side by side; without the page's own read (the first) the page carries none of them,
  // as a missing user's page would carry an empty list of posts: the client renders it all.
  const [own, ...others] = await Promise.all(plan.reads.map((read) => readForPage(app, request, read, first.budget.readWaitMs)));
  let body = shell;
  if (own) {
    const found = [own, ...others.filter((read) => read !== undefined)];
    body = atBodyStart(shell, found.map((read) => read.element).join(''));
    if (first.screen) {
      // / is /home too: the client's router replaces it with /home before its first render (routes/redirects.ts).
      const path = plan.page === 'home' ? '/home' : request.url;
      const reads: [FirstReadAnswer, ...FirstReadAnswer[]] = [own.answer, ...found.slice(1).map((read) => read.answer)];
      const input = {
        path,
        page: plan.page,
        reads,
        config: first.config,
        userAgent: request.headers['user-agent'] ?? '',
        limitMs: first.budget.renderLimitMs,
      };
      body = (await withFirstScreen(body, first.screen, input, request)) ?? body;
    }
  }
  reply.header('vary', 'cookie, user-agent');
  return sendRendered(request, reply, body, 'text/html; charset=utf-8', `"${md5(body)}"`, policy, 'private, no-cache');
}

export async function registerStaticClient(
  app: FastifyInstance,
  { dir, config, firstScreenBudget, firstScreenNow = () => true }: StaticClientOptions,
): Promise<void> {
  const clientDir = dir !== undefined && existsSync(join(dir, 'index.html')) ? dir : undefined;
  // The page's own inline scripts run by their hashes, once the page is known.
  let policy = contentSecurityPolicy(config);
  let page: { body: string; etag: string } | undefined;
  let screen: FirstScreen | undefined;
  if (clientDir) {
    const readAsset = (href: string) => readIfPresent(join(clientDir, href));
    screen = await loadFirstScreen(app, clientDir, readAsset);
    const rendered = renderClient(
      {
        indexHtml: readFileSync(join(clientDir, 'index.html'), 'utf8'),
        manifest: readIfPresent(join(clientDir, 'manifest.webmanifest')),
        sw: readIfPresent(join(clientDir, 'sw.js')),
        readAsset,
      },
      config,
    );
    if (rendered.unrevised.length > 0) {
      app.log.warn(
        { files: rendered.unrevised },
        'sw.js has no precache entry for these files: installed apps will not see configuration changes until the next build',
      );
    }
    page = { body: rendered.indexHtml, etag: `"${md5(rendered.indexHtml)}"` };
    policy = contentSecurityPolicy(config, inlineScriptsOf(rendered.indexHtml));
    const html = page;
    const routeOptions = { schema: { hide: true } };
    app.get('/index.html', routeOptions, (request, reply) => sendRendered(request, reply, html.body, 'text/html; charset=utf-8', html.etag, policy));
    if (rendered.manifest !== undefined) {
      const body = rendered.manifest;
      const etag = `"${md5(body)}"`;
      app.get('/manifest.webmanifest', routeOptions, (request, reply) =>
        sendRendered(request, reply, body, 'application/manifest+json; charset=utf-8', etag),
      );
    }
    if (rendered.sw !== undefined) {
      const body = rendered.sw;
      const etag = `"${md5(body)}"`;
      app.get('/sw.js', routeOptions, (request, reply) => sendRendered(request, reply, body, 'text/javascript; charset=utf-8', etag));
    }
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      globIgnore: [...RENDERED],
      setHeaders(reply, path) {
        const immutable = path.includes(`${join(clientDir, 'assets')}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // A share to the installed app (the manifest's share_target) goes on to the composer; the
    // service worker does the same when it has the page, and keeps the shared pictures too.
    app.get(SHARE_TARGET_PATH, (request, reply) => reply.redirect(shareTargetLocation(request.url.split('?')[1] ?? ''), 303));
    await app.register(shareTargetPost);
  }
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    const what = isApiPath(request.url) || !wantsPage ? '接口不存在' : '文件不存在';
    return reply.status(404).send(fail(ErrorCode.NotFound, `${what}：${request.method} ${request.url.split('?')[0]}`));
  };
  if (page) {
    const shell = page;
    // Every page of the app is a route (GET and HEAD), not the not-found handler: only routes
    // get the compression of @fastify/compress (the page is tens of KB with its stylesheet).
    app.get('/*', { schema: { hide: true } }, (request, reply) => {
      if (isApiPath(request.url) || isFilePath(request.url)) return notFound(request, reply);
      const plan = firstScreenNow() ? firstScreenOfRequest(request) : undefined;
      if (plan) return sendWithFirstScreen(app, request, reply, plan, shell.body, policy, { screen, config, budget: firstScreenBudget });
      return sendRendered(request, reply, shell.body, 'text/html; charset=utf-8', shell.etag, policy);
    });
  }
  app.setNotFoundHandler(notFound);
}

/** The largest shared text the composer could take (a field past it is cut by the reader). */
const SHARED_FIELD_MAX_BYTES = 64 * 1024;

/**
 * A share POSTed while no service worker is there to read it (a browser that cleared it): its
 * title, text and link go on to the composer; its pictures need the worker, which keeps them
 * until the composer takes them, and are passed over here.
 */
async function shareTargetPost(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyMultipart, { limits: { fields: 10, fieldSize: SHARED_FIELD_MAX_BYTES, parts: 40 } });
  scope.post(SHARE_TARGET_PATH, async (request, reply) => {
    const query = new URLSearchParams();
    const keep = (name: string, value: unknown) => {
      if ((SHARE_FIELDS as readonly string[]).includes(name) && typeof value === 'string' && value.trim()) query.set(name, value);
    };
    try {
      if (request.isMultipart()) {
        for await (const part of request.parts()) {
          if (part.type === 'file') part.file.resume();
          else keep(part.fieldname, part.value);
        }
      } else if (request.body && typeof request.body === 'object') {
        for (const [name, value] of Object.entries(request.body)) keep(name, value);
      }
    } catch (error) {
      // A share cut short still opens the composer, with what arrived.
      request.log.info({ err: error }, 'a shared form could not be read whole');
    }
    return reply.redirect(shareTargetLocation(query.toString()), 303);
  });
}
