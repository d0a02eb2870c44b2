/**
 * Where the page runs: the provider's native app, a WeChat mini-program web view, the WeChat
 * browser, or a plain browser; and on which OS.
 *
 * Native app: its web view appends `GeekTime/<version>` to the user agent (e.g.
 * `... Mobile/15E148 GeekTime/2.8.3`), matched case-insensitively. That token is the only
 * app marker we trust; a bare "geekbang" is not enough (it carries no version, and every
 * version gate of app-gates.ts needs one).
 * Mini-program: `miniProgram` in the user agent, or `window.__wxjs_environment === 'miniprogram'`.
 * WeChat browser: `MicroMessenger`.
 * Harmony: `OpenHarmony` (HarmonyOS NEXT), or `HarmonyOS` without `Android`. Older Huawei
 * phones report `Android ...; HarmonyOS` and run the Android app, so they count as Android.
 */

export type EnvironmentKind = 'app' | 'wechat-miniprogram' | 'wechat' | 'browser';
export type OperatingSystem = 'ios' | 'android' | 'harmony' | 'other';

export interface Environment {
  kind: EnvironmentKind;
  os: OperatingSystem;
  /** The native app's version (`'2.8.3'`), only when kind is 'app'. */
  appVersion: string | null;
  /** A phone or tablet (by user agent; the layout itself follows the viewport width). */
  isMobileDevice: boolean;
}

export interface EnvironmentHints {
  /** navigator.maxTouchPoints: iPadOS reports a Mac user agent but has a touch screen. */
  maxTouchPoints?: number;
  /** window.__wxjs_environment, set by WeChat inside a mini-program web view. */
  wxjsEnvironment?: string | undefined;
}

const APP_TOKEN = /\bGeekTime\/(\d+(?:\.\d+)*)/i;

function detectOs(ua: string, hints: EnvironmentHints): OperatingSystem {
  if (/OpenHarmony/i.test(ua)) return 'harmony';
  if (/HarmonyOS/i.test(ua) && !/Android/i.test(ua)) return 'harmony';
  if (/Android/i.test(ua)) return 'android';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios';
  if (/Macintosh/i.test(ua) && (hints.maxTouchPoints ?? 0) > 1) return 'ios';
  return 'other';
}

/** Pure detection from a user agent string (plus optional hints a browser can give). */
export function detectEnvironment(ua: string, hints: EnvironmentHints = {}): Environment {
  const os = detectOs(ua, hints);
  const appMatch = APP_TOKEN.exec(ua);
  let kind: EnvironmentKind;
  if (appMatch) kind = 'app';
  else if (/miniProgram/i.test(ua) || hints.wxjsEnvironment === 'miniprogram') kind = 'wechat-miniprogram';
  else if (/MicroMessenger/i.test(ua)) kind = 'wechat';
  else kind = 'browser';
  const isMobileDevice =
    os === 'ios' || os === 'android' || os === 'harmony' || /Mobile|Phone|iPad|Tablet/i.test(ua);
  return { kind, os, appVersion: appMatch ? appMatch[1]! : null, isMobileDevice };
}

/** WeChat's flag, read without a global type declaration (other modules may declare their own). */
function wxjsEnvironment(win: Window): string | undefined {
  const value: unknown = (win as Window & { __wxjs_environment?: unknown }).__wxjs_environment;
  return typeof value === 'string' ? value : undefined;
}

/** Where there is no browser (the server's render of a first screen): the user agent it renders for. */
let serverUserAgent = '';

/** The server's render of a first screen (app/first-screen.server.tsx) renders for this user agent. */
export function renderEnvironmentOnServer(userAgent: string): void {
  serverUserAgent = userAgent;
}

/** The environment of this page. Reads the user agent and WeChat's flag on every call. */
export function currentEnvironment(): Environment {
  if (typeof navigator === 'undefined') return detectEnvironment(serverUserAgent);
  return detectEnvironment(navigator.userAgent, {
    maxTouchPoints: navigator.maxTouchPoints,
    wxjsEnvironment: typeof window === 'undefined' ? undefined : wxjsEnvironment(window),
  });
}

/**
 * Compares dotted numeric versions: negative when a < b, 0 when equal, positive when a > b.
 * Missing parts count as 0 (`'2.8'` equals `'2.8.0'`); a non-numeric part counts as 0.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.trim().split('.');
  const pb = b.trim().split('.');
  const length = Math.max(pa.length, pb.length);
  for (let i = 0; i < length; i += 1) {
    const x = Number.parseInt(pa[i] ?? '0', 10) || 0;
    const y = Number.parseInt(pb[i] ?? '0', 10) || 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Inside the native app at `version` or later. False outside the app. */
export function appVersionAtLeast(env: Environment, version: string): boolean {
  return env.kind === 'app' && env.appVersion !== null && compareVersions(env.appVersion, version) >= 0;
}

/**
 * Whether every request must carry the app's Device-Id and ticket headers:
 * the native app on iOS 2.6.0+, Android 2.7.3+, or Harmony (any version).
 */
export function sendsAppHeaders(env: Environment): boolean {
  if (env.kind !== 'app') return false;
  switch (env.os) {
    case 'ios':
      return appVersionAtLeast(env, '2.6.0');
    case 'android':
      return appVersionAtLeast(env, '2.7.3');
    case 'harmony':
      return true;
    default:
      return false;
  }
}

/** The native app version that gives the page its login user. */
const APP_VERSION_NATIVE_LOGIN_USER = '2.5.1';

/** Whether the login user can be read from the native app (app 2.5.1+). */
export function nativeLoginUserAvailable(env: Environment): boolean {
  return appVersionAtLeast(env, APP_VERSION_NATIVE_LOGIN_USER);
}
