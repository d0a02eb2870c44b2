// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LOCAL_CACHE_MAX_BYTES } from '#shared/constants.ts';
import { createLocalCache, jsonByteLength, LocalCacheFullError, utf8Length } from '../../src/client/lib/local-cache.ts';

let counter = 0;
/** A fresh cache (its own IndexedDB database) per test, with a controllable clock. */
function freshCache(maxBytes?: number) {
  const clock = { now: 1_000_000 };
  const cache = createLocalCache(`test-${Date.now()}-${counter++}`, {
    ...(maxBytes === undefined ? {} : { maxBytes }),
    now: () => clock.now,
  });
  return { cache, clock };
}

/** A string value whose JSON is exactly `bytes` bytes long (two quotes included). */
const sized = (bytes: number): string => 'x'.repeat(bytes - 2);

describe('sizes', () => {
  it('measures the UTF-8 byte length of the JSON', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('中')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(jsonByteLength({ a: 1 })).toBe(7);
    expect(jsonByteLength('中')).toBe(5);
    expect(jsonByteLength(sized(100))).toBe(100);
  });
});

describe('createLocalCache', () => {
  it('defaults to the 3 MB cap', () => {
    expect(LOCAL_CACHE_MAX_BYTES).toBe(3_145_728);
    expect(createLocalCache('default-cap').maxBytes).toBe(LOCAL_CACHE_MAX_BYTES);
  });

  it('stores, reads, replaces and deletes values', async () => {
    const { cache } = freshCache();
    expect(await cache.get('missing')).toBeUndefined();
    await cache.set('a', { n: 1, list: [1, 2], text: '中文' });
    await cache.set('b', 'two');
    expect(await cache.get('a')).toEqual({ n: 1, list: [1, 2], text: '中文' });
    expect(await cache.get('b')).toBe('two');
    await cache.set('b', 'changed');
    expect(await cache.get('b')).toBe('changed');
    await cache.del('a');
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('b')).toBe('changed');
  });

  it('rejects an empty key', async () => {
    const { cache } = freshCache();
    await expect(cache.set('', 1)).rejects.toThrow(/non-empty/);
    await expect(cache.get('')).rejects.toThrow(/non-empty/);
    await expect(cache.del('')).rejects.toThrow(/non-empty/);
  });

  it('treats storing undefined as a delete', async () => {
    const { cache } = freshCache();
    await cache.set('a', 1);
    await cache.set('a', undefined);
    expect(await cache.get('a')).toBeUndefined();
  });

  it('shares data between instances of the same name', async () => {
    const name = `shared-${counter++}`;
    await createLocalCache(name).set('k', 'v');
    expect(await createLocalCache(name).get('k')).toBe('v');
  });

  it('drops expired entries on read; ttl 0 never expires', async () => {
    const { cache, clock } = freshCache();
    await cache.set('short', 1, { ttlMs: 1000 });
    await cache.set('forever', 2, { ttlMs: 0 });
    await cache.set('default', 3);
    clock.now += 999;
    expect(await cache.get('short')).toBe(1);
    clock.now += 1;
    expect(await cache.get('short')).toBeUndefined();
    clock.now += 10 * 365 * 24 * 3600 * 1000;
    expect(await cache.get('forever')).toBe(2);
    expect(await cache.get('default')).toBe(3);
  });

  it('a new value gets its own expiry', async () => {
    const { cache, clock } = freshCache();
    await cache.set('a', 1, { ttlMs: 100 });
    clock.now += 50;
    await cache.set('a', 2, { ttlMs: 100 });
    clock.now += 60;
    expect(await cache.get('a')).toBe(2);
    await cache.set('a', 3);
    clock.now += 1000;
    expect(await cache.get('a')).toBe(3);
  });

  it('rejects a value over the cap, changing nothing', async () => {
    const { cache } = freshCache(300);
    await cache.set('a', sized(300));
    await expect(cache.set('a', sized(301))).rejects.toBeInstanceOf(LocalCacheFullError);
    await expect(cache.set('b', sized(301))).rejects.toBeInstanceOf(LocalCacheFullError);
    expect(await cache.get('a')).toBe(sized(300));
    expect(await cache.get('b')).toBeUndefined();
  });

  it('rejects values IndexedDB cannot store, keeping what was there', async () => {
    const { cache } = freshCache();
    await cache.set('ok', 1);
    const withFunction = { toJSON: () => 'fine', fn: () => 1 };
    await expect(cache.set('ok', withFunction)).rejects.toThrow();
    await expect(cache.set('bad', withFunction)).rejects.toThrow();
    expect(await cache.get('ok')).toBe(1);
    expect(await cache.get('bad')).toBeUndefined();
  });

  it('rejects a bad ttl', async () => {
    const { cache } = freshCache();
    await expect(cache.set('a', 1, { ttlMs: -1 })).rejects.toThrow(/ttl/);
  });

  it('keeps the last of concurrent writes to a key', async () => {
    const { cache } = freshCache();
    await Promise.all(Array.from({ length: 30 }, (_, i) => cache.set('k', i)));
    expect(await cache.get('k')).toBe(29);
  });
});
