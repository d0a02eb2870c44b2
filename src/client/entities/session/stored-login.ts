/**
 * Stored login info (SPEC.md section 3): ticket and deviceId under one local-storage key.
 * Browsers authenticate with the httpOnly cookie, so there the ticket is kept empty: a
 * ticket readable by scripts is only stored where it must travel as a header (mini-program).
 */
export const LOGIN_INFO_KEY = 'horde:login-info';

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
