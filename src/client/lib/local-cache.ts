/**
 * The local cache, where the query cache is persisted (query-cache-persister.ts): values kept in
 * IndexedDB under a byte cap, each with an expiry. The app keeps one value in it, the persisted
 * client, which the persister trims to the cap before storing (query-cache-trim.ts, least recently
 * used queries out first): so the cap is checked per value, and nothing here evicts.
 *
 * Layout: each cache is its own IndexedDB database (`local-cache:<name>`, via idb-keyval's
 * createStore) with one object store holding two records per entry:
 *   ['m', key] -> EntryMeta  (its size and expiry)
 *   ['v', key] -> the value  (stored by structured clone)
 * Every operation runs in one readwrite transaction, so the two stay consistent, also across tabs.
 *
 * Sizes are the UTF-8 byte length of the value's JSON.
 */
import { createStore, type UseStore } from 'idb-keyval';
import { LOCAL_CACHE_MAX_BYTES } from '#shared/constants.ts';

export interface EntryMeta {
  /** UTF-8 bytes of the value's JSON. */
  size: number;
  /** When the entry expires (ms since the epoch); 0 means never. */
  expiresAt: number;
}

export interface SetOptions {
  /** Time to live in ms; 0 or absent means the entry never expires. */
  ttlMs?: number;
}

export interface LocalCache {
  readonly name: string;
  readonly maxBytes: number;
  /** The value, or undefined when absent or expired (an expired entry is dropped). */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * Stores a JSON-serialisable value in place of the key's last one. Rejects with
   * LocalCacheFullError (and changes nothing) when it is larger than the cap. Storing
   * `undefined` deletes the key.
   */
  set(key: string, value: unknown, options?: SetOptions): Promise<void>;
  del(key: string): Promise<void>;
}

export interface LocalCacheOptions {
  /** The byte cap; defaults to LOCAL_CACHE_MAX_BYTES (3145728). */
  maxBytes?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** The value cannot fit under the cap. */
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

type RecordKey = ['m' | 'v', string];

const metaKey = (key: string): RecordKey => ['m', key];
const valueKey = (key: string): RecordKey => ['v', key];

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

/**
 * Runs `body` in one transaction and resolves with what it passes to `done` once the
 * transaction has committed. Requests are chained with callbacks (not awaits) so the
 * transaction stays active. An error `body` throws aborts the transaction and rejects.
 */
function transact<T>(withStore: UseStore, body: (store: IDBObjectStore, done: (result: T) => void) => void): Promise<T> {
  return withStore(
    'readwrite',
    (store) =>
      new Promise<T>((resolve, reject) => {
        const tx = store.transaction;
        let result: T;
        let failure: unknown = null;
        tx.oncomplete = () => resolve(result);
        tx.onabort = tx.onerror = () => reject(failure ?? tx.error ?? new Error('IndexedDB transaction failed'));
        try {
          body(store, (value) => {
            result = value;
          });
        } catch (error) {
          failure = error;
          tx.abort();
        }
      }),
  );
}

/** Deletes an entry: its meta record and its value. */
function deleteEntry(store: IDBObjectStore, key: string): void {
  store.delete(metaKey(key));
  store.delete(valueKey(key));
}

/**
 * Reads the value of `key` for get(): undefined for a missing or expired entry (deleted on the
 * way), and for a meta record without its value (repaired).
 */
function readEntry<T>(store: IDBObjectStore, key: string, now: number, done: (value: T | undefined) => void): void {
  const metaRequest = store.get(metaKey(key));
  metaRequest.onsuccess = () => {
    const meta = metaRequest.result as EntryMeta | undefined;
    if (!meta) return done(undefined);
    if (meta.expiresAt > 0 && meta.expiresAt <= now) {
      deleteEntry(store, key);
      return done(undefined);
    }
    const valueRequest = store.get(valueKey(key));
    valueRequest.onsuccess = () => {
      const value = valueRequest.result as T | undefined;
      if (value === undefined) store.delete(metaKey(key)); // a meta record without its value: repair
      done(value);
    };
  };
}

export function createLocalCache(name: string, options: LocalCacheOptions = {}): LocalCache {
  if (!name) throw new Error('Local cache name must be non-empty');
  const maxBytes = options.maxBytes ?? LOCAL_CACHE_MAX_BYTES;
  const now = options.now ?? Date.now;
  const useStore = storeFor(name);

  const del = async (key: string): Promise<void> => {
    checkKey(key);
    await transact<void>(useStore, (store) => deleteEntry(store, key));
  };

  return {
    name,
    maxBytes,

    async get<T>(key: string): Promise<T | undefined> {
      checkKey(key);
      return transact<T | undefined>(useStore, (store, done) => readEntry(store, key, now(), done));
    },

    async set(key: string, value: unknown, setOptions: SetOptions = {}): Promise<void> {
      checkKey(key);
      if (value === undefined) return del(key);
      const size = jsonByteLength(value);
      if (size > maxBytes) throw new LocalCacheFullError(key, size, maxBytes);
      const ttlMs = setOptions.ttlMs ?? 0;
      if (!Number.isFinite(ttlMs) || ttlMs < 0) throw new Error(`Invalid ttlMs: ${ttlMs}`);
      const meta: EntryMeta = { size, expiresAt: ttlMs > 0 ? now() + ttlMs : 0 };
      await transact<void>(useStore, (store) => {
        store.put(value, valueKey(key)); // throws DataCloneError for values IndexedDB cannot store
        store.put(meta, metaKey(key));
      });
    },

    del,
  };
}
