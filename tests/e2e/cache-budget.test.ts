/**
 * The service worker's image cache is bounded: by count (IMAGE_CACHE_MAX_ENTRIES,
 * the oldest go first) and by age (IMAGE_CACHE_MAX_AGE_S), against the built app and the real
 * server in a persistent Chromium profile. (The persisted query cache's budget is unit-tested:
 * tests/unit/query-client.test.ts.)
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { IMAGE_CACHE_MAX_AGE_S, IMAGE_CACHE_MAX_ENTRIES, IMAGE_CACHE_NAME } from '../../sw/constants.ts';
import { callApi } from './support/app.ts';
import { sharedApp, useBrowser } from './support/fixtures.ts';

/** Fetches each URL from the page (through the worker), a few at a time; resolves with their statuses. */
function fetchAll(page: Page, urls: string[]): Promise<number[]> {
  return page.evaluate(async (urls) => {
    const statuses: number[] = [];
    for (let i = 0; i < urls.length; i += 10) {
      const batch = await Promise.all(urls.slice(i, i + 10).map((url) => fetch(url).then((response) => response.status)));
      statuses.push(...batch);
    }
    return statuses;
  }, urls);
}

function cachedImages(page: Page): Promise<string[]> {
  return page.evaluate(async (name) => {
    const cache = await caches.open(name);
    return (await cache.keys()).map((request) => new URL(request.url).pathname + new URL(request.url).search);
  }, IMAGE_CACHE_NAME);
}

describe('the image cache', () => {
  const app = sharedApp();
  const { page } = useBrowser(app, { at: '/home' });
  let image: string;

  beforeAll(async () => {
    const posts = await callApi(app, api.channelPosts, { tab: 'all', size: 20 });
    image = /"(\/img\/[^"?]+)/.exec(JSON.stringify(posts))?.[1] ?? '';
    expect(image, 'the demo feed has images under /img/').not.toBe('');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  });

  it(`keeps at most ${IMAGE_CACHE_MAX_ENTRIES} images, the oldest going first`, async () => {
    // Distinct addresses of one picture (the server snaps ?w= to its variant widths).
    const urls = Array.from({ length: IMAGE_CACHE_MAX_ENTRIES + 20 }, (_, i) => `${image}?w=${i + 1}&n=${i}`);
    const statuses = await fetchAll(page, urls);
    expect(statuses.every((status) => status === 200)).toBe(true);
    await expect.poll(async () => (await cachedImages(page)).length).toBe(IMAGE_CACHE_MAX_ENTRIES);
    const cached = new Set(await cachedImages(page));
    expect(cached.has(urls.at(-1)!)).toBe(true);
    expect(cached.has(urls[0]!)).toBe(false);
  });

  it(`drops an image cached more than ${IMAGE_CACHE_MAX_AGE_S / 86_400} days ago`, async () => {
    const old = `${image}?w=640&n=old`;
    expect(await fetchAll(page, [old])).toEqual([200]);
    await expect.poll(async () => (await cachedImages(page)).includes(old)).toBe(true);
    // Workbox keeps when each entry was cached in IndexedDB: move this one back past the limit.
    const aged = await page.evaluate(
      async ({ url, ageMs }) =>
        new Promise<boolean>((resolve, reject) => {
          const open = indexedDB.open('workbox-expiration');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const store = open.result.transaction('cache-entries', 'readwrite').objectStore('cache-entries');
            const cursor = store.openCursor();
            let found = false;
            cursor.onsuccess = () => {
              const entry = cursor.result;
              if (!entry) return resolve(found);
              const value = entry.value as { url: string; timestamp: number };
              if (value.url === url) {
                found = true;
                entry.update({ ...value, timestamp: Date.now() - ageMs });
              }
              entry.continue();
            };
          };
        }),
      { url: new URL(old, app.url).href, ageMs: (IMAGE_CACHE_MAX_AGE_S + 3600) * 1000 },
    );
    expect(aged).toBe(true);
    // The next image cached runs the expiration.
    expect(await fetchAll(page, [`${image}?w=640&n=new`])).toEqual([200]);
    await expect.poll(async () => (await cachedImages(page)).includes(old)).toBe(false);
  });
});
