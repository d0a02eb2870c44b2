/**
 * A logout this device made that the server may not have heard yet (the user chose it offline,
 * or the answer was lost). It is final here at once: the readable LOGOUT_PENDING_COOKIE travels
 * beside the httpOnly ticket the page cannot clear, and the server ends that ticket at whatever
 * request of this browser reaches it next (a page, a call, the service worker's fetch), before
 * anything reads it. The cookie is shared by every tab and outlives a reload or a restart of the
 * browser. A client that sends its ticket as headers (the mini-program) keeps them here, only to
 * end that ticket with them.
 */
import { LOGOUT_PENDING_COOKIE } from '#shared/endpoints.ts';

const PENDING_HEADERS_KEY = 'horde:logout-pending-headers'; // horde: src/client/README.md ('horde')
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
