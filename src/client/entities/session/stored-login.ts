/**
 * Stored login info: ticket and deviceId under one local-storage key.
 * Browsers authenticate with the httpOnly cookie, so there the ticket is kept empty: a
 * ticket readable by scripts is only stored where it must travel as a header (mini-program).
 */
import type { LoginUser } from '#shared/schemas.ts';

export const LOGIN_INFO_KEY = 'horde:login-info'; // horde: src/client/README.md ('horde')

export interface StoredLoginInfo {
  ticket: string;
  deviceId: string;
}

export function readStoredLogin(): StoredLoginInfo | null {
  try {
    const raw = localStorage.getItem(LOGIN_INFO_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredLoginInfo>;
    return typeof parsed.ticket === 'string' && typeof parsed.deviceId === 'string'
      ? { ticket: parsed.ticket, deviceId: parsed.deviceId }
      : null;
  } catch {
    return null;
  }
}

export function writeStoredLogin(info: StoredLoginInfo): void {
  try {
    localStorage.setItem(LOGIN_INFO_KEY, JSON.stringify(info));
  } catch {
    // Private mode without storage: the cookie still carries the session.
  }
}

export function clearStoredLogin(): void {
  try {
    localStorage.removeItem(LOGIN_INFO_KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * The login user last seen on this device, so a start without a network still knows who is
 * logged in (their writes queue, nobody is asked to log in where no login can work). Dropped at
 * logout and whenever the server says nobody is logged in; read back by remembered-user.ts.
 */
export const LOGIN_USER_KEY = 'horde:login-user'; // horde: src/client/README.md ('horde')

export function rememberLoginUser(user: LoginUser | null): void {
  try {
    if (user) {
      localStorage.setItem(LOGIN_USER_KEY, JSON.stringify(user));
      localStorage.removeItem(ENDED_ELSEWHERE_KEY);
    } else localStorage.removeItem(LOGIN_USER_KEY);
  } catch {
    // No storage: an offline start does not know the user, as before.
  }
}

/**
 * Set by the tab that met HTTP 452 (the ticket ended by a login elsewhere), before it logs out:
 * the other tabs hear it (a storage event) and explain too, instead of going quietly logged out
 * by the logout they also hear. Kept until the next login, so that logout is known for this one.
 */
export const ENDED_ELSEWHERE_KEY = 'horde:ended-elsewhere'; // horde: src/client/README.md ('horde')

export function markEndedElsewhere(): void {
  try {
    // A new value each time, so a second 452 is heard too.
    localStorage.setItem(ENDED_ELSEWHERE_KEY, String(Date.now()));
  } catch {
    // No storage: the other tabs hear the ended ticket when they next ask the server.
  }
}

export function endedElsewhere(): boolean {
  try {
    return localStorage.getItem(ENDED_ELSEWHERE_KEY) !== null;
  } catch {
    return false;
  }
}
