/**
 * The query cache kept in IndexedDB, so what was read shows offline: the dehydrated client is stored
 * in the local cache named 'query-cache' (its own IndexedDB database, 3 MB cap), at most once per
 * second, for 24 hours. Only successful queries are stored, except those with
 * `meta: { persist: false }`, and only while they were used (shown or fetched) within those 24
 * hours; when the state would exceed the cap, the least recently used queries are dropped until
 * it fits (query-cache-trim.ts). Drafts and the outbox live in IndexedDB databases of their own,
 * which nothing here touches.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  persistQueryClientSave,
  persistQueryClientSubscribe,
  type PersistedClient,
  type Persister,
} from '@tanstack/query-persist-client-core';
import { LOCAL_CACHE_MAX_BYTES } from '#shared/constants.ts';
import { loadChunk } from './chunk.ts';
import { createLocalCache, jsonByteLength, type LocalCache } from './local-cache.ts';
import { PERSIST_MAX_AGE_MS } from './query-client.ts';

export const PERSIST_THROTTLE_MS = 1000;
export const QUERY_CACHE_STORE = 'query-cache';
const PERSISTED_CLIENT_KEY = 'client';

interface DehydratableQuery {
  state: { status: string };
  meta?: Record<string, unknown> | undefined;
}

/**
 * Successful queries, except those with meta.persist === false and, once who is logged in is
 * known (`viewer`: a uid, or null for nobody), those owned by anyone else: an answer for the
 * last login that came in after their logout.
 */
export function shouldPersistQuery(query: DehydratableQuery, viewer?: number | null): boolean {
  const owner = query.meta?.ownedBy;
  return query.state.status === 'success' && query.meta?.persist !== false && (owner === undefined || viewer === undefined || owner === viewer);
}

/** A persisted query with the time it was last used: shown (an observer came) or fetched. */
export type PersistedQuery = PersistedClient['clientState']['queries'][number] & { usedAt?: number };

/** When each query was last shown in this page (by queryHash); fetches count through dataUpdatedAt. */
export type QueryUses = Map<string, number>;

export interface QueryCachePersister extends Persister {
  /** Writes a pending throttled save now. Resolves when stored (never rejects). */
  flush(): Promise<void>;
}

export interface QueryCachePersisterOptions {
  throttleMs?: number;
  maxAge?: number;
  /** When queries were last shown; filled from what was stored, when restored. */
  uses?: QueryUses;
}

/**
 * A Persister over the local cache: saves are throttled (trailing: the latest state is
 * written at most once per throttleMs); each query is stored with the time it was last used,
 * and left out once unused for maxAge; what is over the cache's cap is trimmed, least recently
 * used first; the whole is stored with the cache's expiry set to maxAge. Storage failures are
 * logged, never thrown into the app.
 */
export function createQueryCachePersister(cache: LocalCache, options: QueryCachePersisterOptions = {}): QueryCachePersister {
  const throttleMs = options.throttleMs ?? PERSIST_THROTTLE_MS;
  const maxAge = options.maxAge ?? PERSIST_MAX_AGE_MS;
  const uses = options.uses ?? new Map<string, number>();
  let pending: PersistedClient | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    const client = pending;
    pending = null;
    if (client) {
      writing = writing.then(async () => {
        try {
          const queries = (client.clientState.queries as PersistedQuery[])
            .map((query) => ({ ...query, usedAt: Math.max(query.state.dataUpdatedAt, uses.get(query.queryHash) ?? 0) }))
            .filter((query) => query.usedAt > Date.now() - maxAge);
          let stored: PersistedClient = { ...client, clientState: { ...client.clientState, queries } };
          if (jsonByteLength(stored) > cache.maxBytes) {
            stored = (await loadChunk(() => import('./query-cache-trim.ts'))).trimPersistedClient(stored, cache.maxBytes);
          }
          await cache.set(PERSISTED_CLIENT_KEY, stored, { ttlMs: maxAge });
        } catch (error) {
          console.warn('Could not persist the query cache', error);
        }
      });
    }
    return writing;
  };

  return {
    persistClient(client) {
      pending = client;
      timer ??= setTimeout(() => void flush(), throttleMs);
    },
    async restoreClient() {
      await writing;
      const client = await cache.get<PersistedClient>(PERSISTED_CLIENT_KEY);
      for (const query of (client?.clientState.queries ?? []) as PersistedQuery[]) {
        if (query.usedAt) uses.set(query.queryHash, query.usedAt);
      }
      return client;
    },
    async removeClient() {
      pending = null;
      if (timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
      await writing;
      await cache.del(PERSISTED_CLIENT_KEY);
    },
    flush,
  };
}

let saveNow: (() => Promise<void>) | undefined;

/** Writes the cache as it is now, unthrottled (what a logout leaves must be all that is kept). */
export function savePersistedQueryCacheNow(): Promise<void> {
  return saveNow?.() ?? Promise.resolve();
}

export interface PersistQueryCacheOptions {
  /** A different buster discards what was persisted (e.g. the app version). */
  buster?: string;
  maxAge?: number;
  throttleMs?: number;
  /** The byte cap of the persisted state; defaults to LOCAL_CACHE_MAX_BYTES. */
  maxBytes?: number;
  /** The local cache (IndexedDB database) name; defaults to 'query-cache'. */
  cacheName?: string;
  /** Who is logged in (a uid, null for nobody, undefined while not known), read at each save: only their own answers are stored. */
  viewer?: () => number | null | undefined;
}

/**
 * Restores the persisted query cache into `queryClient` (discarding it when older than maxAge
 * or saved with another buster, or unreadable), then saves every later change. Never rejects:
 * without IndexedDB the app simply starts with an empty cache. Resolves with a function that
 * stops persisting and writes any pending save.
 */
export async function persistQueryCache(queryClient: QueryClient, options: PersistQueryCacheOptions = {}): Promise<() => void> {
  const buster = options.buster ?? '';
  const maxAge = options.maxAge ?? PERSIST_MAX_AGE_MS;
  const cache = createLocalCache(options.cacheName ?? QUERY_CACHE_STORE, { maxBytes: options.maxBytes ?? LOCAL_CACHE_MAX_BYTES });
  const uses: QueryUses = new Map();
  const persister = createQueryCachePersister(cache, { maxAge, uses, ...(options.throttleMs === undefined ? {} : { throttleMs: options.throttleMs }) });
  // A query is used when a screen shows it (its fetches count through dataUpdatedAt).
  const unsubscribeUses = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'observerAdded') uses.set(event.query.queryHash, Date.now());
  });

  // Fresh data the cache already holds (the first feed page that came in the page) is newer
  // than anything restored: hydration keeps it, and it is not marked stale below. What is
  // already marked stale (a first page kept by the last visit) is restored data like the rest.
  const current = new Set(
    queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.dataUpdatedAt > 0 && !query.state.isInvalidated)
      .map((query) => query.queryHash),
  );
  try {
    await persistQueryClientRestore({ queryClient, persister, maxAge, buster });
    // What was restored shows at once but is refetched when used: the last save may predate
    // the last change (saves are throttled), e.g. a follow made just before a reload.
    await queryClient.invalidateQueries({ refetchType: 'none', predicate: (query) => !current.has(query.queryHash) });
  } catch (error) {
    console.warn('Could not restore the persisted query cache', error);
  }

  const saving = {
    queryClient,
    persister,
    buster,
    dehydrateOptions: {
      shouldDehydrateQuery: (query: DehydratableQuery) => shouldPersistQuery(query, options.viewer?.()),
      // Paused mutations are replayed by the outbox, not by the query cache.
      shouldDehydrateMutation: () => false,
    },
  };
  const unsubscribe = persistQueryClientSubscribe(saving);
  saveNow = () => persistQueryClientSave(saving).then(() => persister.flush());
  // What the cache held before (the page's first feed page) changes nothing the subscription
  // hears: saved now, unthrottled, or a first visit left within a second and then opened
  // offline would have nothing to show.
  if (current.size > 0) void persistQueryClientSave(saving).then(() => persister.flush());

  // Write the latest state when the page is hidden: it may never become visible again.
  const onHidden = (): void => {
    if (document.visibilityState === 'hidden') void persister.flush();
  };
  const onPageHide = (): void => void persister.flush();
  const hasDocument = typeof document !== 'undefined';
  if (hasDocument) document.addEventListener('visibilitychange', onHidden);
  if (typeof window !== 'undefined') window.addEventListener('pagehide', onPageHide);

  return () => {
    saveNow = undefined;
    unsubscribe();
    unsubscribeUses();
    if (hasDocument) document.removeEventListener('visibilitychange', onHidden);
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', onPageHide);
    void persister.flush();
  };
}
