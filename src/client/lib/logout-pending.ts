/**
 * Whether this device has a logout the server may not have heard yet (the user chose it offline,
 * or its answer was lost): the readable LOGOUT_PENDING_COOKIE, shared by every tab and kept across
 * a reload or a restart of the browser. Only this check comes with the app's first code; marking,
 * ending and clearing the logout load when there is one (logout-settle.ts).
 */
import { LOGOUT_PENDING_COOKIE } from '#shared/endpoints.ts';

export function logoutPending(): boolean {
  return typeof document !== 'undefined' && document.cookie.split(';').some((pair) => pair.trim().startsWith(`${LOGOUT_PENDING_COOKIE}=`));
}
