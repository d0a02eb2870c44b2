/**
 * Updates are prompted: a new worker waits until a page sends `{type: 'SKIP_WAITING'}` (the
 * user accepted the update), then takes over the open pages, which reload on 'controlling'.
 * The first worker takes control of the pages at once.
 */
import { clientsClaim } from 'workbox-core';
import { messageTypeOf, MSG_SKIP_WAITING } from './constants.ts';

declare const self: ServiceWorkerGlobalScope;

export function setupLifecycle(): void {
  self.addEventListener('message', (event) => {
    if (messageTypeOf(event.data) === MSG_SKIP_WAITING) event.waitUntil(self.skipWaiting());
  });
  clientsClaim();
}
