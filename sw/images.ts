/**
 * Images: everything under /img/ and every other same-origin image, cache first with an
 * expiration by count and age. Precached icons never get here (the precache route is first).
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { IMAGE_CACHE_MAX_AGE_S, IMAGE_CACHE_MAX_ENTRIES, IMAGE_CACHE_NAME } from './constants.ts';
import { networkStatusPlugin } from './network-status.ts';

export function setupImageCache(): void {
  registerRoute(
    ({ url, request, sameOrigin }) =>
      sameOrigin && (url.pathname.startsWith('/img/') || request.destination === 'image'),
    new CacheFirst({
      cacheName: IMAGE_CACHE_NAME,
      plugins: [
        new CacheableResponsePlugin({ statuses: [0, 200] }),
        new ExpirationPlugin({
          maxEntries: IMAGE_CACHE_MAX_ENTRIES,
          maxAgeSeconds: IMAGE_CACHE_MAX_AGE_S,
          purgeOnQuotaError: true,
        }),
        networkStatusPlugin,
      ],
    }),
  );
}
