/** What the service worker keeps for this user, dropped when the user changes (entities/session/session-cache.ts). */

/** The message type shared with sw/constants.ts (the client does not import the worker's code). */
const MSG_CLEAR_API_CACHE = 'CLEAR_API_CACHE';

/**
 * Drops the API answers the worker cached and the page of /home it kept (call on logout or a
 * change of user, so the next user never sees the previous one's feed offline). Does nothing
 * without a worker.
 */
export function clearServiceWorkerApiCache(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.controller?.postMessage({ type: MSG_CLEAR_API_CACHE });
}
