/**
 * The login user as the native app gives it, from app version 2.5.1: the app's own field names are
 * mapped to the account service's.
 */
import type { LoginUser } from '#shared/schemas.ts';
import { nativeLoginUserAvailable, type Environment } from '../../platform/environment.ts';
import { nativeBridge } from './credentials.ts';

/** The fields the app reports; anything may be missing or of the wrong type. */
export interface NativeUserInfo {
  uid?: unknown;
  avatar?: unknown;
  cellphone?: unknown;
  create_time?: unknown;
  nickname?: unknown;
  is_student?: unknown;
  type?: unknown;
  ucode?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));
const number = (value: unknown) => (typeof value === 'number' ? value : Number(value));

/** Null when the app reports nobody (logged out) or a user without a uid. */
export function loginUserFromNative(info: NativeUserInfo | null | undefined): LoginUser | null {
  const uid = number(info?.uid);
  if (!info || !Number.isInteger(uid) || uid <= 0) return null;
  const created = number(info.create_time);
  const type = number(info.type);
  return {
    uid,
    ucode: text(info.ucode),
    nick: text(info.nickname),
    avatar: text(info.avatar),
    cellphone: text(info.cellphone),
    // The app reports seconds; the account service milliseconds.
    ctime: Number.isFinite(created) ? (created < 1e12 ? created * 1000 : created) : 0,
    student: info.is_student === 1 || info.is_student === true || info.is_student === '1' ? 1 : 0,
    usertype: Number.isInteger(type) && type > 0 ? type : 1,
  };
}

/**
 * The login user from the app, when this is the app at 2.5.1 or later and it offers one;
 * undefined means "ask the account service instead".
 */
export async function nativeLoginUser(env: Environment): Promise<LoginUser | null | undefined> {
  const getUserInfo = nativeBridge()?.getUserInfo;
  if (env.kind !== 'app' || !nativeLoginUserAvailable(env) || !getUserInfo) return undefined;
  return loginUserFromNative(await getUserInfo());
}
