/**
 * Network status as the service worker sees it: a fetch that fails tells every window
 * `{type: 'network-status', online: false, at}` (when it failed: a page that knows the network
 * came back after that ignores it); the first fetch that succeeds after a failure tells
 * them `{online: true}`. The client says 网络异常 while offline (a toast once, a banner while it
 * lasts). A page that opens later asks with `{type: 'GET_NETWORK_STATUS'}` and gets the answer
 * on the message port.
 */
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { messageTypeOf, MSG_GET_NETWORK_STATUS, MSG_NETWORK_STATUS } from './constants.ts';

declare const self: ServiceWorkerGlobalScope;

export interface NetworkStatusMessage {
  type: typeof MSG_NETWORK_STATUS;
  online: boolean;
  /** When the failure that made it offline happened (ms since the epoch). */
  at?: number;
}

let online = true;
let failedAt = 0;

async function broadcast(message: NetworkStatusMessage): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) client.postMessage(message);
}

/** A fetch failed for a network reason (not because the page gave up on it). */
export function reportFailure(error: unknown): Promise<void> {
  if (error instanceof DOMException && error.name === 'AbortError') return Promise.resolve();
  online = false;
  failedAt = Date.now();
  // Every failure is told, so windows opened after the first one learn it too.
  return broadcast({ type: MSG_NETWORK_STATUS, online: false, at: failedAt });
}

/** A response arrived (any HTTP status: the network works). */
export function reportSuccess(): Promise<void> {
  if (online) return Promise.resolve();
  online = true;
  return broadcast({ type: MSG_NETWORK_STATUS, online: true });
}

export function isOnline(): boolean {
  return online;
}

/** Add to every strategy that goes to the network. */
export const networkStatusPlugin: WorkboxPlugin = {
  fetchDidFail: async ({ error }) => {
    await reportFailure(error);
  },
  fetchDidSucceed: async ({ response, event }) => {
    event.waitUntil(reportSuccess());
    return response;
  },
};

export function setupNetworkStatus(): void {
  self.addEventListener('message', (event) => {
    if (messageTypeOf(event.data) !== MSG_GET_NETWORK_STATUS) return;
    const answer: NetworkStatusMessage = online ? { type: MSG_NETWORK_STATUS, online } : { type: MSG_NETWORK_STATUS, online, at: failedAt };
    const port = event.ports[0];
    if (port) port.postMessage(answer);
    else if (event.source) event.source.postMessage(answer);
  });
}
