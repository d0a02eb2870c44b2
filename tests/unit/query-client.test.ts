// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onlineManager, QueryObserver } from '@tanstack/react-query';
import { createStore, get, set } from 'idb-keyval';
import type { PersistedClient } from '@tanstack/query-persist-client-core';
import { ApiError, type ApiErrorKind } from '../../src/client/lib/http.ts';
import { createLocalCache, jsonByteLength } from '../../src/client/lib/local-cache.ts';
import { createQueryClient, followOnline, shouldRetry, type ErrorMeta, type OnlineSource } from '../../src/client/lib/query-client.ts';
import {
  createQueryCachePersister,
  persistQueryCache,
  QUERY_CACHE_STORE,
  shouldPersistQuery,
  type PersistedQuery,
} from '../../src/client/lib/query-cache-persister.ts';
import { trimPersistedClient } from '../../src/client/lib/query-cache-trim.ts';

const apiError = (kind: ApiErrorKind, code = -1002): ApiError =>
  new ApiError({ code, msg: 'boom', kind, status: kind === 'logged-in-elsewhere' ? 452 : 200, path: '/x' });

function recordingClient() {
  const calls: Array<{ error: unknown; meta: ErrorMeta }> = [];
  const client = createQueryClient({ onError: (error, meta) => calls.push({ error, meta }) });
  return { client, calls };
}

describe('createQueryClient defaults', () => {
  it('uses the documented defaults', () => {
    const { client } = recordingClient();
    const queries = client.getDefaultOptions().queries!;
    expect(queries.staleTime).toBe(30_000);
    expect(queries.gcTime).toBe(24 * 60 * 60 * 1000);
    // Never paused offline: a query fails at once and its page shows the offline state.
    expect(queries.networkMode).toBe('always');
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
  });

  it('never retries business errors, a 452, or non-API errors', () => {
    expect(shouldRetry(0, apiError('business'))).toBe(false);
    expect(shouldRetry(0, apiError('logged-in-elsewhere', -2000))).toBe(false);
    expect(shouldRetry(0, new Error('bug'))).toBe(false);
    expect(shouldRetry(0, new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('retries network failures up to twice, never a timeout (it already waited 10 s)', () => {
    for (const kind of ['network', 'http'] as const) {
      expect(shouldRetry(0, apiError(kind, -10086))).toBe(true);
      expect(shouldRetry(1, apiError(kind, -10086))).toBe(true);
      expect(shouldRetry(2, apiError(kind, -10086))).toBe(false);
    }
    expect(shouldRetry(0, apiError('timeout', -10086))).toBe(false);
  });

  it('never retries while offline: the failure shows at once', () => {
    onlineManager.setOnline(false);
    try {
      expect(shouldRetry(0, apiError('network', -10086))).toBe(false);
    } finally {
      onlineManager.setOnline(true);
    }
    expect(shouldRetry(0, apiError('network', -10086))).toBe(true);
  });

  it('retries a query that fails on the network, then reports once', async () => {
    const { client, calls } = recordingClient();
    let attempts = 0;
    const failing = client.fetchQuery({
      queryKey: ['net'],
      queryFn: () => {
        attempts += 1;
        throw apiError('network', -10086);
      },
      retryDelay: 0,
    });
    await expect(failing).rejects.toBeInstanceOf(ApiError);
    expect(attempts).toBe(3);
    expect(calls).toHaveLength(1);
  });
});

describe('error hooks', () => {
  it('reports failed queries with kind query, and silent from meta', async () => {
    const { client, calls } = recordingClient();
    const error = apiError('business', -2902);
    await expect(client.fetchQuery({ queryKey: ['loud'], queryFn: () => Promise.reject(error) })).rejects.toBe(error);
    await expect(
      client.fetchQuery({ queryKey: ['quiet'], queryFn: () => Promise.reject(error), meta: { silent: true } }),
    ).rejects.toBe(error);
    expect(calls).toEqual([
      { error, meta: { kind: 'query', silent: false } },
      { error, meta: { kind: 'query', silent: true } },
    ]);
  });

  it('reports failed mutations with kind mutation', async () => {
    const { client, calls } = recordingClient();
    const error = apiError('business', -5007);
    const run = (silent?: boolean) =>
      client
        .getMutationCache()
        .build(client, {
          mutationFn: () => Promise.reject(error),
          ...(silent === undefined ? {} : { meta: { silent } }),
        })
        .execute(undefined);
    await expect(run()).rejects.toBe(error);
    await expect(run(true)).rejects.toBe(error);
    expect(calls.map((call) => call.meta)).toEqual([
      { kind: 'mutation', silent: false },
      { kind: 'mutation', silent: true },
    ]);
  });

  it('survives a throwing handler', async () => {
    const client = createQueryClient({
      onError: () => {
        throw new Error('handler bug');
      },
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(client.fetchQuery({ queryKey: ['x'], queryFn: () => Promise.reject(apiError('business')) })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('types meta (silent and persist are booleans)', () => {
    const { client } = recordingClient();
    // @ts-expect-error: silent must be a boolean
    void client.prefetchQuery({ queryKey: ['typed'], queryFn: () => 1, meta: { silent: 'yes' } });
    void client.prefetchQuery({ queryKey: ['typed'], queryFn: () => 1, meta: { silent: true, persist: false, other: 1 } });
  });
});

describe('followOnline', () => {
  it('follows its source: onOffline once per loss, every query marked stale when the network returns', async () => {
    const { client } = recordingClient();
    let online = true;
    const listeners = new Set<(online: boolean) => void>();
    const source: OnlineSource = {
      isOnline: () => online,
      subscribe: (onChange) => {
        listeners.add(onChange);
        return () => {
          listeners.delete(onChange);
        };
      },
    };
    const change = (next: boolean): void => {
      online = next;
      for (const listener of listeners) listener(next);
    };
    const onOffline = vi.fn();
    followOnline(client, source, onOffline);
    try {
      await client.fetchQuery({ queryKey: ['shown'], queryFn: () => 1 });
      change(false);
      expect(onlineManager.isOnline()).toBe(false);
      expect(onOffline).toHaveBeenCalledTimes(1);
      change(true);
      expect(onlineManager.isOnline()).toBe(true);
      expect(client.getQueryState(['shown'])?.isInvalidated).toBe(true);
      expect(onOffline).toHaveBeenCalledTimes(1);
    } finally {
      onlineManager.setEventListener(() => undefined);
      onlineManager.setOnline(true);
    }
    expect(listeners.size).toBe(0);
  });
});

describe('persistence', () => {
  const stops: Array<() => void> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await createLocalCache(QUERY_CACHE_STORE).del('client');
  });

  async function persisted(): Promise<PersistedClient | undefined> {
    return createLocalCache(QUERY_CACHE_STORE).get<PersistedClient>('client');
  }

  it('persists successful queries and restores them into a new client', async () => {
    const first = recordingClient().client;
    stops.push(await persistQueryCache(first, { buster: 'v1', throttleMs: 10 }));
    await first.fetchQuery({ queryKey: ['posts', 'all'], queryFn: () => ({ list: [1, 2, 3] }) });
    await first.fetchQuery({ queryKey: ['secret'], queryFn: () => 'token', meta: { persist: false } });
    await first.fetchQuery({ queryKey: ['broken'], queryFn: () => Promise.reject(apiError('business')) }).catch(() => {});

    await vi.waitFor(async () => {
      const stored = await persisted();
      expect(stored?.clientState.queries.map((q) => q.queryKey)).toEqual([['posts', 'all']]);
    });

    const second = recordingClient().client;
    stops.push(await persistQueryCache(second, { buster: 'v1', throttleMs: 10 }));
    expect(second.getQueryData(['posts', 'all'])).toEqual({ list: [1, 2, 3] });
    expect(second.getQueryData(['secret'])).toBeUndefined();
    // Restored answers show at once but are refetched when used: the save may predate a change.
    expect(second.getQueryState(['posts', 'all'])?.isInvalidated).toBe(true);
  });

  it('stores a login’s own answers only while they are the one logged in here, however late an answer comes', async () => {
    let viewer: number | null | undefined = 41;
    const first = recordingClient().client;
    stops.push(await persistQueryCache(first, { throttleMs: 10, viewer: () => viewer }));
    await first.fetchQuery({ queryKey: ['channels', 'followed', 41], queryFn: () => ['mine'], meta: { ownedBy: 41 } });
    await first.fetchQuery({ queryKey: ['posts', 'all'], queryFn: () => ['everyone’s'] });
    await vi.waitFor(async () => expect((await persisted())?.clientState.queries).toHaveLength(2));

    // Logged out; an answer for them still in flight lands afterwards.
    viewer = null;
    await first.fetchQuery({ queryKey: ['session', 'notices', 41, 'unread'], queryFn: () => 3, meta: { ownedBy: 41 } });
    first.setQueryData(['posts', 'all'], ['everyone’s, newer']);
    await vi.waitFor(async () => {
      const stored = (await persisted())?.clientState.queries ?? [];
      expect(stored.map((query) => query.queryKey)).toEqual([['posts', 'all']]);
      expect(stored[0]?.state.data).toEqual(['everyone’s, newer']);
    });
  });

  it('keeps what the cache held before the restore (the page’s first feed page): newer, and not marked stale', async () => {
    const first = recordingClient().client;
    stops.push(await persistQueryCache(first, { buster: 'v1', throttleMs: 10 }));
    first.setQueryData(['posts', 'all'], { list: ['old'] });
    first.setQueryData(['channels'], ['kept']);
    await vi.waitFor(async () => expect((await persisted())?.clientState.queries).toHaveLength(2));

    const second = recordingClient().client;
    second.setQueryData(['posts', 'all'], { list: ['fresh'] });
    stops.push(await persistQueryCache(second, { buster: 'v1', throttleMs: 10 }));
    expect(second.getQueryData(['posts', 'all'])).toEqual({ list: ['fresh'] });
    expect(second.getQueryState(['posts', 'all'])?.isInvalidated).toBe(false);
    expect(second.getQueryData(['channels'])).toEqual(['kept']);
    expect(second.getQueryState(['channels'])?.isInvalidated).toBe(true);
    // And saved, though nothing changed after the restore: an offline start next has it.
    await vi.waitFor(async () => {
      const saved = (await persisted())?.clientState.queries.find((query) => query.queryHash === '["posts","all"]');
      expect(saved?.state.data).toEqual({ list: ['fresh'] });
    });
  });

  it('discards a cache saved with another buster', async () => {
    const first = recordingClient().client;
    stops.push(await persistQueryCache(first, { buster: 'v1', throttleMs: 10 }));
    first.setQueryData(['k'], 1);
    await vi.waitFor(async () => expect(await persisted()).toBeDefined());

    const second = recordingClient().client;
    stops.push(await persistQueryCache(second, { buster: 'v2', throttleMs: 10 }));
    expect(second.getQueryData(['k'])).toBeUndefined();
  });

  it('discards a cache older than maxAge', async () => {
    const first = recordingClient().client;
    stops.push(await persistQueryCache(first, { throttleMs: 10 }));
    first.setQueryData(['k'], 1);
    await vi.waitFor(async () => expect(await persisted()).toBeDefined());
    const stored = (await persisted())!;
    await createLocalCache(QUERY_CACHE_STORE).set('client', { ...stored, timestamp: Date.now() - 25 * 60 * 60 * 1000 });

    const second = recordingClient().client;
    stops.push(await persistQueryCache(second, { throttleMs: 10 }));
    expect(second.getQueryData(['k'])).toBeUndefined();
  });

  it('throttles saves to the latest state', async () => {
    const writes: unknown[] = [];
    const fake = {
      ...createLocalCache('unused-by-this-test'),
      maxBytes: 1_000_000,
      set: async (_key: string, value: unknown) => {
        writes.push(value);
      },
    };
    const persister = createQueryCachePersister(fake, { throttleMs: 40 });
    const state = (n: number): PersistedClient => ({ timestamp: n, buster: '', clientState: { queries: [], mutations: [] } });
    for (let i = 1; i <= 5; i += 1) void persister.persistClient(state(i));
    expect(writes).toEqual([]);
    await vi.waitFor(() => expect(writes).toHaveLength(1));
    expect((writes[0] as PersistedClient).timestamp).toBe(5);
    void persister.persistClient(state(6));
    await persister.flush();
    expect(writes.map((w) => (w as PersistedClient).timestamp)).toEqual([5, 6]);
    await persister.flush(); // nothing pending: no write
    expect(writes).toHaveLength(2);
  });

  it('stops saving after unsubscribe, flushing what was pending', async () => {
    const client = recordingClient().client;
    const throttleMs = 5;
    const stop = await persistQueryCache(client, { throttleMs });
    client.setQueryData(['pending'], 'yes');
    stop();
    const keys = async () => (await persisted())?.clientState.queries.map((q) => q.queryKey);
    await vi.waitFor(async () => expect(await keys()).toEqual([['pending']]));
    client.setQueryData(['after'], 'no');
    // Still subscribed, the persister would save ['after'] one throttle window from now: give it
    // many windows (a wait, not a timing assertion), then nothing new may have been stored.
    await new Promise((resolve) => setTimeout(resolve, throttleMs * 40));
    expect(await keys()).toEqual([['pending']]);
  });

  it('keeps the persisted state under the byte cap', async () => {
    const client = recordingClient().client;
    stops.push(await persistQueryCache(client, { throttleMs: 10, maxBytes: 5000, cacheName: 'query-cache-small' }));
    const now = Date.now();
    for (let i = 0; i < 10; i += 1) {
      client.setQueryData(['page', i], 'x'.repeat(1000), { updatedAt: now - 10_000 + i });
    }
    const small = createLocalCache('query-cache-small');
    await vi.waitFor(async () => {
      const stored = await small.get<PersistedClient>('client');
      expect(stored?.clientState.queries.some((q) => q.queryKey[1] === 9)).toBe(true);
    });
    const stored = (await small.get<PersistedClient>('client'))!;
    expect(jsonByteLength(await small.get('client'))).toBeLessThanOrEqual(5000);
    // none was shown: the pages updated last are kept, the oldest dropped
    const kept = stored.clientState.queries.map((q) => q.queryKey[1] as number).sort((a, b) => a - b);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(kept.at(-1)).toBe(9);
    expect(kept[0]).toBe(10 - kept.length);
    await small.del('client');
  });

  it('drops the least recently used first: a query on screen outlives newer ones nobody looks at', async () => {
    const client = recordingClient().client;
    stops.push(await persistQueryCache(client, { throttleMs: 10, maxBytes: 5000, cacheName: 'query-cache-lru' }));
    const now = Date.now();
    client.setQueryData(['page', 'shown'], 'x'.repeat(1000), { updatedAt: now - 60_000 });
    for (let i = 0; i < 9; i += 1) client.setQueryData(['page', i], 'x'.repeat(1000), { updatedAt: now - 10_000 + i });
    // A screen shows the page fetched longest ago.
    const unsubscribe = new QueryObserver(client, { queryKey: ['page', 'shown'], enabled: false }).subscribe(() => {});
    client.setQueryData(['page', 'last'], 'x'.repeat(1000), { updatedAt: now - 5_000 });
    const lru = createLocalCache('query-cache-lru');
    const keys = async () => (await lru.get<PersistedClient>('client'))?.clientState.queries.map((q) => q.queryKey[1]);
    await vi.waitFor(async () => expect(await keys()).toContain('last'));
    expect(await keys()).toContain('shown');
    expect(await keys()).not.toContain(0);
    expect(jsonByteLength(await lru.get('client'))).toBeLessThanOrEqual(5000);
    unsubscribe();
    await lru.del('client');
  });

  it('remembers across a reload when each query was last used', async () => {
    const options = { throttleMs: 10, maxBytes: 6000, cacheName: 'query-cache-lru-reload' };
    const store = createLocalCache(options.cacheName);
    const keys = async () => (await store.get<PersistedClient>('client'))?.clientState.queries.map((q) => q.queryKey[1]);
    const now = Date.now();
    const first = recordingClient().client;
    const stopFirst = await persistQueryCache(first, options);
    first.setQueryData(['page', 'shown'], 'x'.repeat(1000), { updatedAt: now - 60_000 });
    const unsubscribe = new QueryObserver(first, { queryKey: ['page', 'shown'], enabled: false }).subscribe(() => {});
    for (let i = 0; i < 3; i += 1) first.setQueryData(['page', i], 'x'.repeat(1000), { updatedAt: now - 10_000 + i });
    await vi.waitFor(async () => expect(await keys()).toHaveLength(4));
    unsubscribe();
    stopFirst();

    // The next visit restores all four, shows none, and fetches new pages until the cap is reached.
    const second = recordingClient().client;
    stops.push(await persistQueryCache(second, options));
    expect(second.getQueryData(['page', 'shown'])).toBeDefined();
    for (let i = 3; i < 6; i += 1) second.setQueryData(['page', i], 'x'.repeat(1000), { updatedAt: Date.now() });
    await vi.waitFor(async () => expect(await keys()).toContain(5));
    expect(await keys()).toContain('shown');
    expect(await keys()).not.toContain(0);
    await store.del('client');
  });

  it('leaves out a query unused for 24 hours', async () => {
    const client = recordingClient().client;
    stops.push(await persistQueryCache(client, { throttleMs: 10 }));
    client.setQueryData(['stale'], 'old', { updatedAt: Date.now() - 25 * 60 * 60 * 1000 });
    client.setQueryData(['fresh'], 'new');
    await vi.waitFor(async () => expect((await persisted())?.clientState.queries.map((q) => q.queryKey)).toEqual([['fresh']]));
  });

  it('never evicts what lives outside its own database: the drafts and an outbox', async () => {
    const draftsStore = createStore('horde-drafts', 'drafts');
    const outboxStore = createStore('horde-outbox', 'outbox');
    await set('drafts', { post: { publishParams: { content: '草稿' } } }, draftsStore);
    await set('item-1', { client_id: 'c-1', path: '/serv/v1/post/add' }, outboxStore);
    const client = recordingClient().client;
    const cacheName = 'query-cache-full';
    stops.push(await persistQueryCache(client, { throttleMs: 10, maxBytes: 20_000, cacheName }));
    for (let i = 0; i < 50; i += 1) client.setQueryData(['page', i], 'x'.repeat(2000));
    const full = createLocalCache(cacheName);
    await vi.waitFor(async () => {
      const stored = await full.get<PersistedClient>('client');
      expect(stored?.clientState.queries.some((q) => q.queryKey[1] === 49)).toBe(true);
    });
    expect(jsonByteLength(await full.get('client'))).toBeLessThanOrEqual(20_000);
    expect(await get('drafts', draftsStore)).toEqual({ post: { publishParams: { content: '草稿' } } });
    expect(await get('item-1', outboxStore)).toEqual({ client_id: 'c-1', path: '/serv/v1/post/add' });
    await full.del('client');
  });

  it('never rejects when storage fails', async () => {
    const client = recordingClient().client;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const spy = vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new Error('no IndexedDB here');
    });
    try {
      const stop = await persistQueryCache(client, { cacheName: `unavailable-${Date.now()}` });
      stop();
      expect(warn).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
      warn.mockRestore();
      error.mockRestore();
    }
  });
});

describe('trimPersistedClient', () => {
  const query = (key: string, updatedAt: number, bytes: number) => ({
    queryKey: [key],
    queryHash: JSON.stringify([key]),
    dehydratedAt: updatedAt,
    state: {
      data: 'x'.repeat(bytes),
      dataUpdateCount: 1,
      dataUpdatedAt: updatedAt,
      error: null,
      errorUpdateCount: 0,
      errorUpdatedAt: 0,
      fetchFailureCount: 0,
      fetchFailureReason: null,
      fetchMeta: null,
      isInvalidated: false,
      status: 'success' as const,
      fetchStatus: 'idle' as const,
    },
  });
  const client = (queries: PersistedQuery[]): PersistedClient => ({
    timestamp: 1,
    buster: '',
    clientState: { mutations: [], queries },
  });

  it('returns a client that fits unchanged', () => {
    const c = client([query('a', 1, 10)]);
    expect(trimPersistedClient(c, 10_000)).toBe(c);
  });

  it('drops the oldest-updated queries until it fits', () => {
    const [newest, oldest, middle] = [query('new', 300, 1000), query('old', 100, 1000), query('mid', 200, 1000)];
    const c = client([newest, oldest, middle]);
    const twoFit = jsonByteLength(client([newest, middle]));
    const trimmed = trimPersistedClient(c, twoFit);
    expect(trimmed.clientState.queries.map((q) => q.queryKey[0])).toEqual(['new', 'mid']);
    expect(jsonByteLength(trimmed)).toBeLessThanOrEqual(twoFit);
    const tight = trimPersistedClient(c, twoFit - 1);
    expect(tight.clientState.queries.map((q) => q.queryKey[0])).toEqual(['new']);
  });

  it('drops the least recently used first: usedAt when known, else when the data was fetched', () => {
    const used = { ...query('used', 100, 1000), usedAt: 400 };
    const [fetched, idle] = [query('fetched', 300, 1000), query('idle', 200, 1000)];
    const c = client([used, fetched, idle]);
    const trimmed = trimPersistedClient(c, jsonByteLength(client([used, fetched])));
    expect(trimmed.clientState.queries.map((q) => q.queryKey[0])).toEqual(['used', 'fetched']);
  });

  it('empties the state when even one query is too big', () => {
    const c = client([query('huge', 1, 5000)]);
    expect(trimPersistedClient(c, 1000).clientState.queries).toEqual([]);
  });
});

describe('shouldPersistQuery', () => {
  it('keeps successful queries unless meta.persist is false', () => {
    expect(shouldPersistQuery({ state: { status: 'success' } })).toBe(true);
    expect(shouldPersistQuery({ state: { status: 'success' }, meta: { persist: false } })).toBe(false);
    expect(shouldPersistQuery({ state: { status: 'error' } })).toBe(false);
    expect(shouldPersistQuery({ state: { status: 'pending' } })).toBe(false);
  });

  it('keeps a query owned by a login only while that login is the viewer', () => {
    const owned = { state: { status: 'success' }, meta: { ownedBy: 41 } };
    expect(shouldPersistQuery(owned, 41)).toBe(true);
    expect(shouldPersistQuery(owned, 42)).toBe(false);
    expect(shouldPersistQuery(owned, null)).toBe(false);
    // Not known yet (the session is being read at a start): nothing of theirs is dropped.
    expect(shouldPersistQuery(owned, undefined)).toBe(true);
    expect(shouldPersistQuery({ state: { status: 'success' } }, null)).toBe(true);
  });
});
