/** Marks a logout the server may not have heard yet (logout-pending.ts): with the logout's code, apart from what every request checks. */
import { LOGOUT_PENDING_COOKIE } from '#shared/endpoints.ts';
import { hasDocument, PENDING_HEADERS_KEY } from './logout-pending.ts';

/** As long as a ticket can live: a browser away that long comes back with neither. */
const MARK_MAX_AGE_SECONDS = 30 * 24 * 3600;

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
