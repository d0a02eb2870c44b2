/**
 * Names and limits of the service worker, and the API reads it may answer from its cache when
 * the network is down: the POST reads of src/shared/api.ts whose auth is not 'required'. Pure
 * data (no zod, no DOM) so the service worker bundle stays small; tests/e2e/pwa.test.ts checks
 * the list against the contract, so a renamed path or a new read cannot drift silently.
 */
export const CACHED_API_READS: readonly string[] = [
  '/serv/v1/channel/posts',
  '/serv/v1/channel/detail',
  '/serv/v1/channel/category_channel',
  '/serv/v1/channel/recommend_channel_list',
  '/serv/v1/channel/user_channel_list',
  '/serv/v1/post/detail',
  '/serv/v1/user/info',
  '/serv/v1/user/posts',
  '/serv/v1/user/note/list',
  '/serv/v1/comment/list',
  '/serv/v1/likes/list',
  '/serv/v1/topic/list',
  '/serv/v1/topic/detail',
  '/serv/v1/topic/posts',
  '/serv/v1/code/detail',
  '/serv/v3/explore/list',
  '/serv/v2/config/list',
];

/** The query parameter of the synthetic GET key a POST read is cached under. */
export const BODY_HASH_PARAM = '__body';

export const API_CACHE_NAME = 'api-reads-v1';
export const IMAGE_CACHE_NAME = 'images-v1';

/** Network-first timeout for API reads before a cached answer is used. */
export const API_NETWORK_TIMEOUT_MS = 4_000;
export const API_CACHE_MAX_ENTRIES = 300;
export const API_CACHE_MAX_AGE_S = 7 * 24 * 60 * 60;
export const IMAGE_CACHE_MAX_ENTRIES = 300;
export const IMAGE_CACHE_MAX_AGE_S = 30 * 24 * 60 * 60;

/** Header on responses the service worker answered from its API cache. */
export const SW_CACHE_HEADER = 'x-sw-cache';

/** Messages between the pages and the service worker. */
export const MSG_SKIP_WAITING = 'SKIP_WAITING';
export const MSG_NETWORK_STATUS = 'network-status';
export const MSG_GET_NETWORK_STATUS = 'GET_NETWORK_STATUS';
export const MSG_CLEAR_API_CACHE = 'CLEAR_API_CACHE';
