/**
 * A logout this device made that the server may not have heard yet (the user chose it offline,
 * or the answer was lost). It is final here at once: the readable LOGOUT_PENDING_COOKIE travels
 * beside the httpOnly ticket the page cannot clear, and the server ends that ticket at whatever
 * request of this browser reaches it next (a page, a call, the service worker's fetch), before
 * anything reads it; the app itself sends the logout before anything else (settlePendingLogout).
 * A client that sends its ticket as headers (the mini-program) keeps them here, only to end that
 * ticket with them.
 */
import { endpoints, LOGOUT_PENDING_COOKIE } from '#shared/endpoints.ts';
import { HTTP_TIMEOUT_MS } from '#shared/constants.ts';
import { networkError } from './http.ts';
import { logoutPending } from './logout-pending.ts';

const PENDING_HEADERS_KEY = 'horde:logout-pending-headers';
/** As long as a ticket can live: a browser away that long comes back with neither. */
const MARK_MAX_AGE_SECONDS = 30 * 24 * 3600;

const hasDocument = () => typeof document !== 'undefined';

export function markLogoutPending(credentialHeaders: Record<string, string>): void {
  if (!hasDocument()) return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LOGOUT_PENDING_COOKIE}=1; Path=/; Max-Age=${MARK_MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
  try {
    if (Object.keys(credentialHeaders).length > 0) localStorage.setItem(PENDING_HEADERS_KEY, JSON.stringify(credentialHeaders));
  } catch {
    // No storage: a header client's ticket then just expires; nothing here sends it again.
  }
}

/** The pending logout's headers ({} for a browser, whose cookie says it), or null when there is none. */
export function pendingLogout(): Record<string, string> | null {
  if (!logoutPending()) return null;
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(PENDING_HEADERS_KEY) ?? '{}');
    return typeof stored === 'object' && stored !== null ? (stored as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The server heard the logout (it cleared the cookie itself; cleared here too, for an answer from elsewhere). */
export function clearLogoutPending(): void {
  if (!hasDocument()) return;
  document.cookie = `${LOGOUT_PENDING_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  try {
    localStorage.removeItem(PENDING_HEADERS_KEY);
  } catch {
    // Nothing stored.
  }
}

let settling: Promise<void> | undefined;

/**
 * Ends the ticket of a logout the server has not heard yet, once for all the requests waiting on
 * it. Rejects as a request to `path` that got no answer would: offline, nothing is sent after it.
 */
export function settlePendingLogout(path: string = endpoints.logout.path): Promise<void> {
  const headers = pendingLogout();
  if (!headers) return Promise.resolve();
  settling ??= fetch(endpoints.logout.path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: '{}',
    credentials: 'include',
    signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
  })
    .then((response) => {
      // An answer means the server heard: it ended the ticket, or there was none left to end. A
      // server unwell (its database away) may not have: the next request tries again.
      if (response.status >= 500) throw new Error(`logout answered ${response.status}`);
      clearLogoutPending();
    })
    .finally(() => (settling = undefined));
  return settling.catch((error: unknown) => {
    throw networkError(path, error instanceof DOMException && error.name === 'TimeoutError' ? 'timeout' : 'network');
  });
}
