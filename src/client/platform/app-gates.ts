/**
 * Which app links the native app can open, by its version: jump features from app 2.7.1, 2.8.0 and
 * 2.8.3; the universal jump (a URL in the app's own web view) from Android 1.1.3 and iOS 1.1.12.
 * Too old an app is told 需要升级到极客时间最新版.
 *
 * The platform gives these versions but not which target needs which; our reading:
 * - 2.7.1: the pages the app has had since the community came to it: the classroom, login,
 *   courses, columns and articles, a user's centre and a post;
 * - 2.8.0: topics, daily lesson collections and notes (noteDetail);
 * - 2.8.3: the native note page (nativeNoteDetail) and the native web view (nativeWebView);
 * - universal jump: webview.
 * The Harmony app is newer than every gate (its own versions start at 1.0), so it opens all.
 */
import { appLink, type AppTarget, type AppTargetName } from './app-links.ts';
import { compareVersions, type Environment } from './environment.ts';

/** The app versions of the jump features: 2.7.1, 2.8.0 and 2.8.3. */
const [JUMP, JUMP_TOPICS, JUMP_NATIVE] = ['2.7.1', '2.8.0', '2.8.3'] as const;
/** The app's universal jump (any URL in its own web view): Android 1.1.3, iOS 1.1.12. */
const APP_VERSION_UNIVERSAL_JUMP = { android: '1.1.3', ios: '1.1.12' } as const;

export type AppGate = { ios: string; android: string } | 'universal';

const gate = (version: string): AppGate => ({ ios: version, android: version });

export const APP_TARGET_GATES: Record<AppTargetName, AppGate> = {
  classroom: gate(JUMP),
  login: gate(JUMP),
  courseIntro: gate(JUMP),
  courseDetail: gate(JUMP),
  article: gate(JUMP),
  columnDetail: gate(JUMP),
  columnIntro: gate(JUMP),
  hordeInfoCenter: gate(JUMP),
  hordePostDetail: gate(JUMP),
  topicDetail: gate(JUMP_TOPICS),
  dailyCollection: gate(JUMP_TOPICS),
  noteDetail: gate(JUMP_TOPICS),
  nativeNoteDetail: gate(JUMP_NATIVE),
  nativeWebView: gate(JUMP_NATIVE),
  webview: 'universal',
};

/** Whether the app of `env` opens `name` by its app link. False outside the app. */
export function appOpens(env: Environment, name: AppTargetName): boolean {
  if (env.kind !== 'app' || env.appVersion === null) return false;
  if (env.os === 'harmony') return true;
  if (env.os !== 'ios' && env.os !== 'android') return false;
  const needed = APP_TARGET_GATES[name];
  const version = needed === 'universal' ? APP_VERSION_UNIVERSAL_JUMP[env.os] : needed[env.os];
  return compareVersions(env.appVersion, version) >= 0;
}

/**
 * How a target opens here: outside the app as a web page ('web'), inside it by its app link,
 * or not at all when the app is too old for it ('upgrade': say 需要升级到极客时间最新版).
 */
export type TargetOpening = { kind: 'web' } | { kind: 'app-link'; href: string } | { kind: 'upgrade' };

export function targetOpening(env: Environment, target: AppTarget, scheme: string): TargetOpening {
  if (env.kind !== 'app') return { kind: 'web' };
  return appOpens(env, target.name) ? { kind: 'app-link', href: appLink(target, scheme) } : { kind: 'upgrade' };
}
