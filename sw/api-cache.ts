/**
 * Runtime cache of API reads. The main service reads are POSTs with a JSON body, which the Cache
 * API cannot store, so each one is kept under a synthetic GET key: the URL plus a SHA-256 of the
 * (canonical) body, `${url}?__body=${hash}`. Network first with a short timeout, then the cached
 * answer; only successful envelopes (`code: 0`) are kept, with an expiration by count and age.
 */
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { NetworkOnly, Strategy, type StrategyHandler, type StrategyOptions } from 'workbox-strategies';
import { isEnvelope } from '#shared/envelope.ts';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import {
  API_CACHE_MAX_AGE_S,
  API_CACHE_MAX_ENTRIES,
  API_CACHE_NAME,
  API_NETWORK_TIMEOUT_MS,
  BODY_HASH_PARAM,
  CACHED_API_READS,
  messageTypeOf,
  MSG_CLEAR_API_CACHE,
  SW_CACHE_HEADER,
} from './constants.ts';
import { networkStatusPlugin } from './network-status.ts';

declare const self: ServiceWorkerGlobalScope;

const cachedReads = new Set(CACHED_API_READS);

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` share a cache entry; other text as is. */
function canonicalBody(text: string): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
    );
  } catch {
    return text;
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The GET request a POST read is cached under. Clones the request at once (before its body is used). */
export async function bodyCacheKey(request: Request): Promise<Request> {
  const copy = request.clone();
  const url = new URL(copy.url);
  url.searchParams.set(BODY_HASH_PARAM, await sha256Hex(canonicalBody(await copy.text())));
  return new Request(url.href, { method: 'GET' });
}

/** Keep only HTTP 200 answers whose envelope says success. */
const okEnvelopeOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => {
    if (response.status !== 200) return null;
    try {
      const payload: unknown = await response.clone().json();
      return isEnvelope(payload) && payload.code === 0 ? response : null;
    } catch {
      return null;
    }
  },
};

interface NetworkFirstPostOptions extends StrategyOptions {
  networkTimeoutMs: number;
}

/** Network first for POST reads, falling back to the body-keyed cache on failure or timeout. */
class NetworkFirstPostRead extends Strategy {
  private readonly networkTimeoutMs: number;

  constructor(options: NetworkFirstPostOptions) {
    const { networkTimeoutMs, ...rest } = options;
    super(rest);
    this.networkTimeoutMs = networkTimeoutMs;
  }

  protected override async _handle(request: Request, handler: StrategyHandler): Promise<Response> {
    const key = bodyCacheKey(request);
    const network = handler.fetch(request).then((response) => {
      const copy = response.clone();
      void handler.waitUntil(
        key.then((cacheKey) => handler.cachePut(cacheKey, copy)).catch(() => false),
      );
      return response;
    });

    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.networkTimeoutMs);
    });
    try {
      const first = await Promise.race([network, timeout]);
      if (first !== 'timeout') return first;
      // Slow network: answer from the cache if we can, and let the network refresh it.
      const cached = await this.cached(handler, key);
      if (cached) {
        void handler.waitUntil(network.catch(() => undefined));
        return cached;
      }
      return await network;
    } catch (error) {
      const cached = await this.cached(handler, key);
      if (cached) return cached;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async cached(handler: StrategyHandler, key: Promise<Request>): Promise<Response | undefined> {
    const found = await handler.cacheMatch(await key);
    if (!found) return undefined;
    const headers = new Headers(found.headers);
    headers.set(SW_CACHE_HEADER, 'hit');
    return new Response(found.body, { status: found.status, statusText: found.statusText, headers });
  }
}

export function setupApiCache(): void {
  const expiration = new ExpirationPlugin({
    maxEntries: API_CACHE_MAX_ENTRIES,
    maxAgeSeconds: API_CACHE_MAX_AGE_S,
    purgeOnQuotaError: true,
  });

  registerRoute(
    ({ url, request, sameOrigin }) => sameOrigin && request.method === 'POST' && cachedReads.has(url.pathname),
    new NetworkFirstPostRead({
      cacheName: API_CACHE_NAME,
      networkTimeoutMs: API_NETWORK_TIMEOUT_MS,
      plugins: [okEnvelopeOnly, expiration, networkStatusPlugin],
    }),
    'POST',
  );

  // Every other call of the services goes to the network only, but through the worker, so a
  // failed write or login check is noticed as offline too.
  const otherCalls = ({ url, request, sameOrigin }: { url: URL; request: Request; sameOrigin: boolean }) =>
    sameOrigin &&
    request.mode !== 'navigate' &&
    // The live stream goes straight to the network: held open, it would keep the worker busy.
    url.pathname !== OTHER_PATHS.live &&
    (url.pathname.startsWith('/serv/') || url.pathname.startsWith('/wxmisc/'));
  const networkOnly = new NetworkOnly({ plugins: [networkStatusPlugin] });
  registerRoute(otherCalls, networkOnly, 'GET');
  registerRoute(otherCalls, networkOnly, 'POST');

  // Logging out (or switching user) drops the answers cached for the previous user.
  self.addEventListener('message', (event) => {
    if (messageTypeOf(event.data) === MSG_CLEAR_API_CACHE) event.waitUntil(expiration.deleteCacheAndMetadata());
  });
}
