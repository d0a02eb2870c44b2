/**
 * Finding out that the network is back when no event says so: the service worker reported a
 * failed fetch (a dead Wi-Fi, a server restart) while the browser still says online. While the
 * app shows 网络异常, a light call goes out every few seconds; through the worker (an API path),
 * so its success also tells the worker and every open page, and the first answer of any kind
 * brings the app back online.
 */
import { endpoints } from '#shared/endpoints.ts';

export const NETWORK_PROBE_INTERVAL_MS = 5_000;

/** Starts probing; returns the stop. Skips a round while the browser itself says offline. */
export function startNetworkProbe(onOnline: () => void, intervalMs = NETWORK_PROBE_INTERVAL_MS): () => void {
  const timer = setInterval(() => {
    if (navigator.onLine === false) return;
    void probeNetwork().then((answered) => answered && onOnline());
  }, intervalMs);
  return () => clearInterval(timer);
}

/** One light call now: whether the server answered (anything at all). */
export function probeNetwork(): Promise<boolean> {
  return fetch(`${endpoints.auth.path}?t=${Date.now()}`, { credentials: 'include', cache: 'no-store' }).then(
    () => true,
    () => false,
  );
}
