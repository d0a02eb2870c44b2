/**
 * The local cache, where the query cache is persisted (query-cache-persister.ts): a key-value store
 * in IndexedDB with a byte cap, per-entry expiry, least-recently-used eviction and pinned entries
 * that are never evicted (drafts).
 *
 * Layout: each cache is its own IndexedDB database (`local-cache:<name>`, via idb-keyval's
 * createStore) with one object store holding two records per entry:
 *   ['m', key] -> EntryMeta  (the index: size, lastUsed, expiresAt, pinned)
 *   ['v', key] -> the value  (stored by structured clone)
 * Eviction reads only the small meta records, never the values. Every operation runs in one
 * readwrite transaction, so the index and the values stay consistent, also across tabs.
 *
 * Sizes are the UTF-8 byte length of the value's JSON. The cap counts value sizes only.
 */
import { createStore, type UseStore } from 'idb-keyval';
import { LOCAL_CACHE_MAX_BYTES } from '#shared/constants.ts';

export interface EntryMeta {
  /** UTF-8 bytes of the value's JSON. */
  size: number;
  /** When the entry was last written or read (ms, monotonic per cache instance). */
  lastUsed: number;
  /** When the entry expires (ms since the epoch); 0 means never. */
  expiresAt: number;
  /** Pinned entries are never evicted (they still expire if given a ttl). */
  pinned: boolean;
}

export interface SetOptions {
  /** Time to live in ms; 0 or absent means the entry never expires. */
  ttlMs?: number;
  /** Never evict this entry to make room (drafts). */
  pinned?: boolean;
}

export interface LocalCache {
  readonly name: string;
  readonly maxBytes: number;
  /** The value, or undefined when absent or expired (an expired entry is dropped). Marks the entry used. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * Stores a JSON-serialisable value, evicting expired entries and then the least recently
   * used unpinned ones until it fits. Rejects with LocalCacheFullError (and changes nothing)
   * when it cannot fit. Storing `undefined` deletes the key.
   */
  set(key: string, value: unknown, options?: SetOptions): Promise<void>;
  del(key: string): Promise<void>;
  /** Removes every entry, pinned ones included. */
  clear(): Promise<void>;
  /** Keys of the live (unexpired) entries, in key order. */
  keys(): Promise<string[]>;
  /** Sum of the sizes of the live entries. */
  totalBytes(): Promise<number>;
}

export interface LocalCacheOptions {
  /** The byte cap; defaults to LOCAL_CACHE_MAX_BYTES (3145728). */
  maxBytes?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** The value cannot fit under the cap, even after evicting everything evictable. */
export class LocalCacheFullError extends Error {
  readonly key: string;
  readonly size: number;

  constructor(key: string, size: number, maxBytes: number) {
    super(`Local cache entry "${key}" (${size} bytes) does not fit under the ${maxBytes}-byte cap`);
    this.name = 'LocalCacheFullError';
    this.key = key;
    this.size = size;
  }
}

const META = 'm';
const VALUE = 'v';
type RecordKey = [typeof META | typeof VALUE, string];

const metaKey = (key: string): RecordKey => [META, key];
const valueKey = (key: string): RecordKey => [VALUE, key];
/** All meta records: ['m', <any string>] sorts between ['m'] and ['m', []] (strings sort before arrays). */
const metaRange = (): IDBKeyRange => IDBKeyRange.bound([META], [META, []]);

/** UTF-8 byte length of a string without allocating the encoded bytes. */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The size the cache charges for a value: the byte length of its JSON. */
export function jsonByteLength(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : utf8Length(json);
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key === '') throw new Error('Local cache key must be a non-empty string');
}

const stores = new Map<string, UseStore>();

function storeFor(name: string): UseStore {
  let store = stores.get(name);
  if (!store) {
    store = createStore(`local-cache:${name}`, 'entries');
    stores.set(name, store);
  }
  return store;
}

const isExpired = (meta: EntryMeta, now: number): boolean => meta.expiresAt > 0 && meta.expiresAt <= now;

/**
 * Runs `body` in one transaction and resolves with what it passes to `done` once the
 * transaction has committed. Requests are chained with callbacks (not awaits) so the
 * transaction stays active. `fail` aborts the transaction and rejects with the given error.
 */
function transact<T>(
  withStore: UseStore,
  mode: IDBTransactionMode,
  body: (store: IDBObjectStore, done: (result: T) => void, fail: (error: Error) => void) => void,
): Promise<T> {
  return withStore(
    mode,
    (store) =>
      new Promise<T>((resolve, reject) => {
        const tx = store.transaction;
        let result: T;
        let failure: Error | null = null;
        tx.oncomplete = () => resolve(result);
        tx.onabort = tx.onerror = () => reject(failure ?? tx.error ?? new Error('IndexedDB transaction failed'));
        try {
          body(
            store,
            (value) => {
              result = value;
            },
            (error) => {
              failure = error;
              tx.abort();
            },
          );
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
          tx.abort();
        }
      }),
  );
}

/** Reads every meta record, then calls `next` with them (key order). */
function readIndex(store: IDBObjectStore, next: (index: Array<[string, EntryMeta]>) => void): void {
  const range = metaRange();
  const keysRequest = store.getAllKeys(range);
  const valuesRequest = store.getAll(range);
  valuesRequest.onsuccess = () => {
    const keys = keysRequest.result as RecordKey[];
    const metas = valuesRequest.result as EntryMeta[];
    next(keys.map((k, i) => [k[1], metas[i]!]));
  };
}

/** Deletes an entry: its index record and its value. */
function deleteEntry(store: IDBObjectStore, key: string): void {
  store.delete(metaKey(key));
  store.delete(valueKey(key));
}

/**
 * The entries to evict so that `size` more bytes fit in `maxBytes` beside the `live` ones: the
 * least recently used first, pinned ones never; null when evicting every one would not do.
 */
export function evictionVictims(live: ReadonlyArray<[string, EntryMeta]>, size: number, maxBytes: number): string[] | null {
  let total = live.reduce((sum, [, meta]) => sum + meta.size, 0);
  const victims: string[] = [];
  if (total + size <= maxBytes) return victims;
  const evictable = live.filter(([, meta]) => !meta.pinned).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [k, meta] of evictable) {
    if (total + size <= maxBytes) break;
    victims.push(k);
    total -= meta.size;
  }
  return total + size > maxBytes ? null : victims;
}

/**
 * Reads the value of `key` for get(): undefined for a missing or expired entry (deleted on the
 * way), and for an index record without its value (repaired); a live one's use is stamped.
 */
function readEntry<T>(store: IDBObjectStore, key: string, now: number, stamp: () => number, done: (value: T | undefined) => void): void {
  const metaRequest = store.get(metaKey(key));
  metaRequest.onsuccess = () => {
    const meta = metaRequest.result as EntryMeta | undefined;
    if (!meta) return done(undefined);
    if (isExpired(meta, now)) {
      deleteEntry(store, key);
      return done(undefined);
    }
    const valueRequest = store.get(valueKey(key));
    valueRequest.onsuccess = () => {
      const value = valueRequest.result as T | undefined;
      if (value === undefined) {
        store.delete(metaKey(key)); // an index record without its value: repair
        return done(undefined);
      }
      store.put({ ...meta, lastUsed: stamp() } satisfies EntryMeta, metaKey(key));
      done(value);
    };
  };
}

/** Deletes the expired entries of `index` and returns the live ones. */
function dropExpired(store: IDBObjectStore, index: Array<[string, EntryMeta]>, now: number): Array<[string, EntryMeta]> {
  const live: Array<[string, EntryMeta]> = [];
  for (const entry of index) {
    if (isExpired(entry[1], now)) deleteEntry(store, entry[0]);
    else live.push(entry);
  }
  return live;
}

export function createLocalCache(name: string, options: LocalCacheOptions = {}): LocalCache {
  if (!name) throw new Error('Local cache name must be non-empty');
  const maxBytes = options.maxBytes ?? LOCAL_CACHE_MAX_BYTES;
  const now = options.now ?? Date.now;
  const useStore = storeFor(name);

  // lastUsed only orders entries; keep it strictly increasing so same-millisecond uses still order.
  let lastStamp = 0;
  const stamp = (): number => {
    lastStamp = Math.max(now(), lastStamp + 1);
    return lastStamp;
  };

  const del = async (key: string): Promise<void> => {
    checkKey(key);
    await transact<void>(useStore, 'readwrite', (store) => deleteEntry(store, key));
  };

  const liveIndex = (): Promise<Array<[string, EntryMeta]>> =>
    transact(useStore, 'readwrite', (store, done) => {
      readIndex(store, (index) => done(dropExpired(store, index, now())));
    });

  return {
    name,
    maxBytes,

    async get<T>(key: string): Promise<T | undefined> {
      checkKey(key);
      return transact<T | undefined>(useStore, 'readwrite', (store, done) => readEntry(store, key, now(), stamp, done));
    },

    async set(key: string, value: unknown, setOptions: SetOptions = {}): Promise<void> {
      checkKey(key);
      if (value === undefined) return del(key);
      const size = jsonByteLength(value);
      if (size > maxBytes) throw new LocalCacheFullError(key, size, maxBytes);
      const ttlMs = setOptions.ttlMs ?? 0;
      if (!Number.isFinite(ttlMs) || ttlMs < 0) throw new Error(`Invalid ttlMs: ${ttlMs}`);
      const pinned = setOptions.pinned === true;
      await transact<void>(useStore, 'readwrite', (store, _done, fail) => {
        readIndex(store, (index) => {
          const at = now();
          const live = dropExpired(
            store,
            index.filter(([k]) => k !== key),
            at,
          );
          const victims = evictionVictims(live, size, maxBytes);
          if (!victims) return fail(new LocalCacheFullError(key, size, maxBytes));
          for (const k of victims) deleteEntry(store, k);
          const meta: EntryMeta = { size, lastUsed: stamp(), expiresAt: ttlMs > 0 ? at + ttlMs : 0, pinned };
          try {
            store.put(value, valueKey(key)); // throws DataCloneError for values IndexedDB cannot store
            store.put(meta, metaKey(key));
          } catch (error) {
            fail(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
    },

    del,

    async clear(): Promise<void> {
      await transact<void>(useStore, 'readwrite', (store) => {
        store.clear();
      });
    },

    async keys(): Promise<string[]> {
      return (await liveIndex()).map(([key]) => key);
    },

    async totalBytes(): Promise<number> {
      return (await liveIndex()).reduce((sum, [, meta]) => sum + meta.size, 0);
    },
  };
}
