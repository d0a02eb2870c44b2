// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LOCAL_CACHE_MAX_BYTES } from '#shared/constants.ts';
import { createLocalCache, evictionVictims, jsonByteLength, LocalCacheFullError, utf8Length, type EntryMeta } from '../../src/client/lib/local-cache.ts';

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

  it('stores, reads, deletes and clears values', async () => {
    const { cache } = freshCache();
    expect(await cache.get('missing')).toBeUndefined();
    await cache.set('a', { n: 1, list: [1, 2], text: '中文' });
    await cache.set('b', 'two');
    expect(await cache.get('a')).toEqual({ n: 1, list: [1, 2], text: '中文' });
    expect(await cache.keys()).toEqual(['a', 'b']);
    expect(await cache.totalBytes()).toBe(jsonByteLength({ n: 1, list: [1, 2], text: '中文' }) + jsonByteLength('two'));
    await cache.set('b', 'changed');
    expect(await cache.get('b')).toBe('changed');
    await cache.del('a');
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.keys()).toEqual(['b']);
    await cache.clear();
    expect(await cache.keys()).toEqual([]);
    expect(await cache.totalBytes()).toBe(0);
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
    expect(await cache.keys()).toEqual([]);
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
    expect(await cache.keys()).toEqual(['default', 'forever']);
  });

  it('excludes expired entries from keys and totalBytes', async () => {
    const { cache, clock } = freshCache();
    await cache.set('a', sized(10), { ttlMs: 50 });
    await cache.set('b', sized(20));
    clock.now += 100;
    expect(await cache.keys()).toEqual(['b']);
    expect(await cache.totalBytes()).toBe(20);
  });

  it('evicts least recently used entries first when over the cap', async () => {
    const { cache, clock } = freshCache(300);
    await cache.set('a', sized(100));
    clock.now += 1;
    await cache.set('b', sized(100));
    clock.now += 1;
    await cache.set('c', sized(100));
    clock.now += 1;
    expect(await cache.get('a')).toBeDefined(); // a is now more recent than b and c
    clock.now += 1;
    await cache.set('d', sized(150)); // needs 150: evicts b, then c
    expect(await cache.keys()).toEqual(['a', 'd']);
    expect(await cache.totalBytes()).toBe(250);
  });

  it('orders uses within the same millisecond', async () => {
    const { cache } = freshCache(200);
    await cache.set('a', sized(100));
    await cache.set('b', sized(100));
    await cache.get('a');
    await cache.set('c', sized(100));
    expect(await cache.keys()).toEqual(['a', 'c']);
  });

  it('evicts expired entries before live ones', async () => {
    const { cache, clock } = freshCache(200);
    await cache.set('old-live', sized(100));
    await cache.set('expiring', sized(100), { ttlMs: 10 });
    clock.now += 20;
    await cache.set('new', sized(100));
    expect(await cache.keys()).toEqual(['new', 'old-live']);
  });

  it('never evicts pinned entries', async () => {
    const { cache, clock } = freshCache(300);
    await cache.set('draft', sized(100), { pinned: true });
    clock.now += 1;
    await cache.set('a', sized(100));
    clock.now += 1;
    await cache.set('b', sized(100));
    clock.now += 1;
    await cache.set('c', sized(200));
    expect(await cache.keys()).toEqual(['c', 'draft']);
    expect(await cache.get('draft')).toBe(sized(100));
  });

  it('replacing an entry frees its old size first', async () => {
    const { cache } = freshCache(200);
    await cache.set('a', sized(100));
    await cache.set('b', sized(100));
    await cache.set('b', sized(100));
    expect(await cache.keys()).toEqual(['a', 'b']);
  });

  it('rejects what cannot fit, changing nothing', async () => {
    const { cache } = freshCache(300);
    await cache.set('draft', sized(250), { pinned: true });
    await cache.set('a', sized(50));
    await expect(cache.set('big', sized(301))).rejects.toBeInstanceOf(LocalCacheFullError);
    await expect(cache.set('b', sized(100))).rejects.toBeInstanceOf(LocalCacheFullError);
    expect(await cache.keys()).toEqual(['a', 'draft']);
    expect(await cache.totalBytes()).toBe(300);
  });

  it('rejects values IndexedDB cannot store without corrupting the index', async () => {
    const { cache } = freshCache();
    await cache.set('ok', 1);
    const withFunction = { toJSON: () => 'fine', fn: () => 1 };
    await expect(cache.set('bad', withFunction)).rejects.toThrow();
    expect(await cache.keys()).toEqual(['ok']);
  });

  it('rejects a bad ttl', async () => {
    const { cache } = freshCache();
    await expect(cache.set('a', 1, { ttlMs: -1 })).rejects.toThrow(/ttl/);
  });

  it('keeps consistent under concurrent writes', async () => {
    const { cache } = freshCache(1000);
    await Promise.all(Array.from({ length: 30 }, (_, i) => cache.set(`k${i}`, sized(100))));
    expect(await cache.totalBytes()).toBeLessThanOrEqual(1000);
    expect((await cache.keys()).length).toBe(10);
  });
});

describe('evictionVictims', () => {
  const entry = (key: string, size: number, lastUsed: number, pinned = false): [string, EntryMeta] => [key, { size, lastUsed, expiresAt: 0, pinned }];
  const live = [entry('new', 300, 30), entry('old', 300, 10), entry('pinned', 300, 5, true), entry('mid', 300, 20)];

  it('evicts nothing when the new entry fits', () => {
    expect(evictionVictims(live, 100, 1300)).toEqual([]);
  });

  it('evicts the least recently used first, and only as many as it takes; never a pinned one', () => {
    expect(evictionVictims(live, 200, 1100)).toEqual(['old']);
    expect(evictionVictims(live, 500, 1100)).toEqual(['old', 'mid']);
  });

  it('says null when even every unpinned entry is not enough', () => {
    expect(evictionVictims(live, 800, 1000)).toBeNull();
  });
});
