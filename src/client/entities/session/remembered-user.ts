/**
 * The login user this device last saw (stored-login.ts keeps it), read back when the session
 * cannot be checked (no network). Its own chunk: only an offline start needs it.
 */
import type { LoginUser } from '#shared/schemas.ts';
import { LOGIN_USER_KEY } from './stored-login.ts';

const isLoginUser = (value: unknown): value is LoginUser =>
  typeof value === 'object' && value !== null && 'uid' in value && typeof value.uid === 'number' && 'nick' in value && typeof value.nick === 'string';

export function rememberedLoginUser(): LoginUser | null {
  try {
    const user: unknown = JSON.parse(localStorage.getItem(LOGIN_USER_KEY) ?? 'null');
    return isLoginUser(user) ? user : null;
  } catch {
    return null;
  }
}
