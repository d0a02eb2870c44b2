/**
 * Where the ticket travels: the mini-program sends the stored Ticket and Device-Id on every
 * request; the native app (iOS 2.6.0+, Android 2.7.3+, Harmony) sends the ones it holds; browsers
 * rely on the httpOnly cookie.
 */
import { DEVICE_ID_HEADER, TICKET_HEADER } from '#shared/endpoints.ts';
import { setRequestHeaderSource } from '../../lib/http.ts';
import { sendsAppHeaders, type Environment } from '../../platform/environment.ts';
import type { NativeUserInfo } from './native-user.ts';
import { readStoredLogin } from './stored-login.ts';

/** What the native app exposes to its web view (the bridge object it injects). */
export interface NativeLoginBridge {
  getLoginInfo?: () => { ticket?: string; deviceId?: string } | null | undefined;
  /** The app's own "logged in on another device" alert (for HTTP 452). */
  loginMutexAlert?: () => void;
  /** The login user as the app knows it (app 2.5.1+), see native-user.ts. */
  getUserInfo?: () => NativeUserInfo | null | Promise<NativeUserInfo | null>;
  /** The app's share sheet (the payload of platform/native-share.ts), see app/host/native-app.ts. */
  share?: (payload: string) => void;
  /** Opens an app link (`geektime://...`); without it the page goes to the link itself. */
  openUrl?: (url: string) => void;
  /** Whether the app's own audio player is playing ('playing', 'paused', 'stopped'). */
  getAudioStatus?: () => string | null | undefined;
}

declare global {
  interface Window {
    GeekTimeApp?: NativeLoginBridge;
  }
}

export function nativeBridge(): NativeLoginBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.GeekTimeApp;
}

/** Whether this environment keeps the ticket where scripts can send it as a header. */
export function usesHeaderTicket(env: Environment): boolean {
  return env.kind === 'wechat-miniprogram';
}

export function credentialHeaders(env: Environment): Record<string, string> {
  if (env.kind === 'wechat-miniprogram') {
    const stored = readStoredLogin();
    return stored?.ticket ? { [TICKET_HEADER]: stored.ticket, [DEVICE_ID_HEADER]: stored.deviceId } : {};
  }
  if (env.kind === 'app' && sendsAppHeaders(env)) {
    const info = nativeBridge()?.getLoginInfo?.();
    return info?.ticket && info.deviceId ? { [TICKET_HEADER]: info.ticket, [DEVICE_ID_HEADER]: info.deviceId } : {};
  }
  return {};
}

export function installCredentialHeaders(env: Environment): void {
  setRequestHeaderSource(() => credentialHeaders(env));
}

/** The login mutex is per device kind: phones and in-app web views are mobile, the rest pc. */
export function deviceKindOf(env: Environment): 'pc' | 'mobile' {
  return env.kind !== 'browser' || env.isMobileDevice ? 'mobile' : 'pc';
}
