import { routes, type Route } from '../src/shared/endpoints.ts';

/**
 * The API reads the service worker may answer from its cache when the network is down: the
 * POST reads of the contract that anyone may call. Derived from the plain route table (no zod
 * in the service worker), so a new read is cached without touching this file.
 */
export const CACHED_API_READS: readonly string[] = Object.values<Route>(routes)
  .filter((route) => route.method === 'POST' && route.kind === 'read' && route.auth !== 'required')
  .map((route) => route.path);

/** The query parameter of the synthetic GET key a POST read is cached under. */
export const BODY_HASH_PARAM = '__body';

export const API_CACHE_NAME = 'api-reads-v1';
export const IMAGE_CACHE_NAME = 'images-v1';
/** /home's page as the server last rendered it (kept-first-screen.ts). */
export const KEPT_FIRST_SCREEN_CACHE_NAME = 'first-screen-v1';

/** Network-first timeout for API reads before a cached answer is used. */
export const API_NETWORK_TIMEOUT_MS = 4_000;
export const API_CACHE_MAX_ENTRIES = 300;
export const API_CACHE_MAX_AGE_S = 7 * 24 * 60 * 60;
export const IMAGE_CACHE_MAX_ENTRIES = 300;
export const IMAGE_CACHE_MAX_AGE_S = 30 * 24 * 60 * 60;

/** Header on responses the service worker answered from its API cache. */
export const SW_CACHE_HEADER = 'x-sw-cache';

/** The `type` of a message from a page (`{type: …}`), or undefined for anything else. */
export const messageTypeOf = (data: unknown): unknown =>
  typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;

/** Messages between the pages and the service worker. */
export const MSG_SKIP_WAITING = 'SKIP_WAITING';
export const MSG_NETWORK_STATUS = 'network-status';
export const MSG_GET_NETWORK_STATUS = 'GET_NETWORK_STATUS';
export const MSG_CLEAR_API_CACHE = 'CLEAR_API_CACHE';
/** The reader left the app: keep /home's page as it is now (kept-first-screen.ts). */
export const MSG_KEEP_FIRST_SCREEN = 'KEEP_FIRST_SCREEN';
