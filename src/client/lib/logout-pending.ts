/**
 * A logout this device made that the server may not have heard yet (the user chose it offline,
 * or the answer was lost). It is final here at once: the readable LOGOUT_PENDING_COOKIE travels
 * beside the httpOnly ticket the page cannot clear, and the server ends that ticket at whatever
 * request of this browser reaches it next (a page, a call, the service worker's fetch), before
 * anything reads it. The cookie is shared by every tab and outlives a reload or a restart of the
 * browser. A client that sends its ticket as headers (the mini-program) keeps them here, only to
 * end that ticket with them. A logout marks it (mark-logout-pending.ts, with the logout's code);
 * every request checks it.
 */
import { LOGOUT_PENDING_COOKIE } from '#shared/endpoints.ts';

export const PENDING_HEADERS_KEY = 'horde:logout-pending-headers'; // horde: src/client/README.md ('horde')

export const hasDocument = () => typeof document !== 'undefined';

/** The pending logout's headers ({} for a browser, whose cookie says it), or null when there is none. */
export function pendingLogout(): Record<string, string> | null {
  if (!hasDocument() || !document.cookie.split(';').some((pair) => pair.trim().startsWith(`${LOGOUT_PENDING_COOKIE}=`))) return null;
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
