/**
 * The app shell: every built asset (js, css, html, icons, manifest), injected at build time by
 * vite-plugin-pwa into `self.__WB_MANIFEST`, precached and served cache first; caches of older
 * Workbox precache versions are removed.
 */
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

export function setupPrecache(): void {
  cleanupOutdatedCaches();
  precacheAndRoute(self.__WB_MANIFEST);
}
