// @vitest-environment node
/**
 * Which targets open by app link where: a table of real user agents, app versions either side of
 * every gate on iOS and Android, Harmony, the WeChat browser, the mini-program and plain browsers.
 */
import { describe, expect, it } from 'vitest';
import { APP_TARGET_GATES, appOpens, targetOpening } from '../../src/client/platform/app-gates.ts';
import { targetOfUrl, type AppTarget } from '../../src/client/platform/app-links.ts';
import { detectEnvironment, nativeLoginUserAvailable, sendsAppHeaders } from '../../src/client/platform/environment.ts';
import { UA } from './user-agents.ts';

const SCHEME = 'geektime://';
const targets: Record<string, AppTarget> = {
  post: { name: 'hordePostDetail', postId: 12, tab: 1 },
  user: { name: 'hordeInfoCenter', userId: 7 },
  course: { name: 'courseIntro', id: 100 },
  topic: { name: 'topicDetail', topicId: 3, topicName: 'Rust 入门' },
  daily: { name: 'dailyCollection', collectionId: 6 },
  nativeNote: { name: 'nativeNoteDetail', id: 5, backlevel: 1 },
  nativeWeb: { name: 'nativeWebView', url: 'https://time.geekbang.org/x?a=1' },
  web: { name: 'webview', url: 'https://time.geekbang.org/x?a=1' },
};

const links: Record<string, string> = {
  post: 'geektime://hordePostDetail?postId=12&tab=1',
  user: 'geektime://hordeInfoCenter?userId=7',
  course: 'geektime://courseIntro?id=100',
  topic: 'geektime://topicDetail?topicId=3&topicName=Rust%20%E5%85%A5%E9%97%A8',
  daily: 'geektime://dailyCollection?collectionId=6',
  nativeNote: 'geektime://nativeNoteDetail?id=5&backlevel=1',
  nativeWeb: 'geektime://nativeWebView?url=https%3A%2F%2Ftime.geekbang.org%2Fx%3Fa%3D1',
  web: 'geektime://webview?url=https%3A%2F%2Ftime.geekbang.org%2Fx%3Fa%3D1',
};

/** Which targets each app opens ('all' but those listed as upgrade). */
const table: { label: string; ua: string; kind: string; opens: string[] | 'web' }[] = [
  { label: 'iOS app 2.8.3', ua: UA.iosApp('2.8.3'), kind: 'app', opens: Object.keys(targets) },
  { label: 'iOS app 2.8.2', ua: UA.iosApp('2.8.2'), kind: 'app', opens: ['post', 'user', 'course', 'topic', 'daily', 'web'] },
  { label: 'iOS app 2.8.0', ua: UA.iosApp('2.8.0'), kind: 'app', opens: ['post', 'user', 'course', 'topic', 'daily', 'web'] },
  { label: 'iOS app 2.7.9', ua: UA.iosApp('2.7.9'), kind: 'app', opens: ['post', 'user', 'course', 'web'] },
  { label: 'iOS app 2.7.1', ua: UA.iosApp('2.7.1'), kind: 'app', opens: ['post', 'user', 'course', 'web'] },
  { label: 'iOS app 2.7.0', ua: UA.iosApp('2.7.0'), kind: 'app', opens: ['web'] },
  { label: 'iOS app 1.1.12', ua: UA.iosApp('1.1.12'), kind: 'app', opens: ['web'] },
  { label: 'iOS app 1.1.11', ua: UA.iosApp('1.1.11'), kind: 'app', opens: [] },
  { label: 'Android app 2.8.3', ua: UA.androidApp('2.8.3'), kind: 'app', opens: Object.keys(targets) },
  { label: 'Android app 2.8.2', ua: UA.androidApp('2.8.2'), kind: 'app', opens: ['post', 'user', 'course', 'topic', 'daily', 'web'] },
  { label: 'Android app 2.8.0', ua: UA.androidApp('2.8.0'), kind: 'app', opens: ['post', 'user', 'course', 'topic', 'daily', 'web'] },
  { label: 'Android app 2.7.10', ua: UA.androidApp('2.7.10'), kind: 'app', opens: ['post', 'user', 'course', 'web'] },
  { label: 'Android app 2.7.1', ua: UA.androidApp('2.7.1'), kind: 'app', opens: ['post', 'user', 'course', 'web'] },
  { label: 'Android app 2.7.0', ua: UA.androidApp('2.7.0'), kind: 'app', opens: ['web'] },
  { label: 'Android app 1.1.3', ua: UA.androidApp('1.1.3'), kind: 'app', opens: ['web'] },
  { label: 'Android app 1.1.2', ua: UA.androidApp('1.1.2'), kind: 'app', opens: [] },
  { label: 'Harmony app 1.0.0', ua: UA.harmonyApp('1.0.0'), kind: 'app', opens: Object.keys(targets) },
  { label: 'WeChat browser (Android)', ua: UA.wechatAndroid, kind: 'wechat', opens: 'web' },
  { label: 'WeChat browser (iOS)', ua: UA.wechatIos, kind: 'wechat', opens: 'web' },
  { label: 'mini-program web view', ua: UA.miniProgram, kind: 'wechat-miniprogram', opens: 'web' },
  { label: 'Safari on iPhone', ua: UA.iosSafari, kind: 'browser', opens: 'web' },
  { label: 'Chrome on Android', ua: UA.androidChrome, kind: 'browser', opens: 'web' },
  { label: 'Chrome on Windows', ua: UA.desktopChrome, kind: 'browser', opens: 'web' },
  { label: 'Safari on a Mac', ua: UA.macSafari, kind: 'browser', opens: 'web' },
];

describe.each(table)('$label', ({ ua, kind, opens }) => {
  const env = detectEnvironment(ua);

  it(`is ${kind}`, () => {
    expect(env.kind).toBe(kind);
  });

  it.each(Object.keys(targets))('opens %s as it should', (key) => {
    const opening = targetOpening(env, targets[key]!, SCHEME);
    if (opens === 'web') expect(opening).toEqual({ kind: 'web' });
    else if (opens.includes(key)) expect(opening).toEqual({ kind: 'app-link', href: links[key] });
    else expect(opening).toEqual({ kind: 'upgrade' });
  });
});

describe('the other gates of the same table', () => {
  it('reads the login user from the app from 2.5.1, and sends app headers on iOS 2.6.0+, Android 2.7.3+, Harmony', () => {
    const rows: [string, boolean, boolean][] = [
      [UA.iosApp('2.5.0'), false, false],
      [UA.iosApp('2.5.1'), true, false],
      [UA.iosApp('2.6.0'), true, true],
      [UA.androidApp('2.7.2'), true, false],
      [UA.androidApp('2.7.3'), true, true],
      [UA.harmonyApp('1.0.0'), false, true],
      [UA.wechatAndroid, false, false],
      [UA.miniProgram, false, false],
      [UA.desktopChrome, false, false],
    ];
    for (const [ua, nativeUser, headers] of rows) {
      const env = detectEnvironment(ua);
      expect([ua, nativeLoginUserAvailable(env), sendsAppHeaders(env)]).toEqual([ua, nativeUser, headers]);
    }
  });

  it('gates every target of platform/app-links.ts', () => {
    expect(Object.keys(APP_TARGET_GATES).sort()).toEqual(
      [
        'article',
        'classroom',
        'columnDetail',
        'columnIntro',
        'courseDetail',
        'courseIntro',
        'dailyCollection',
        'hordeInfoCenter',
        'hordePostDetail',
        'login',
        'nativeNoteDetail',
        'nativeWebView',
        'noteDetail',
        'topicDetail',
        'webview',
      ].sort(),
    );
    // An app on an OS it does not name (no iPhone or Android marker) opens nothing.
    expect(appOpens(detectEnvironment('Mozilla/5.0 (X11; Linux x86_64) GeekTime/2.9.0'), 'hordePostDetail')).toBe(false);
  });
});

describe('targetOfUrl', () => {
  const ORIGIN = 'https://horde.example.com';
  const BASE = 'https://time.geekbang.org';
  const of = (href: string, base = BASE) => targetOfUrl(new URL(href, ORIGIN), ORIGIN, base);

  it('reads the pages of this app', () => {
    expect(of('/message/detail/12?tab=1&utm_source=x')).toEqual({ name: 'hordePostDetail', postId: '12', tab: '1' });
    expect(of('/message/detail/12')).toEqual({ name: 'hordePostDetail', postId: '12' });
    expect(of('/usercenter/7')).toEqual({ name: 'hordeInfoCenter', userId: '7' });
    expect(of('/topic/comment/3')).toEqual({ name: 'topicDetail', topicId: '3' });
    expect(of('/home')).toBeNull();
    expect(of('/message/detail/poster/12')).toBeNull();
  });

  it('reads the learning site', () => {
    expect(of(`${BASE}/course/intro/100`)).toEqual({ name: 'courseIntro', id: '100' });
    expect(of(`${BASE}/course/detail/100-5`)).toEqual({ name: 'courseDetail', id: '100', aid: '5' });
    expect(of(`${BASE}/column/article/9`)).toEqual({ name: 'article', id: '9' });
    expect(of(`${BASE}/column/intro/8`)).toEqual({ name: 'columnIntro', id: '8' });
    expect(of(`${BASE}/dailylesson/collection/6`)).toEqual({ name: 'dailyCollection', collectionId: '6' });
    expect(of(`${BASE}/learn/more`)).toBeNull();
    expect(of('https://evil.example.com/course/intro/100')).toBeNull();
    expect(of(`${BASE}.evil.com/course/intro/100`)).toBeNull();
    // Under a base with a path, and with an undecodable id.
    expect(of('https://learn.example.com/site/column/article/4', 'https://learn.example.com/site/')).toEqual({ name: 'article', id: '4' });
    expect(of(`${BASE}/column/article/%E0%A4%A`)).toBeNull();
  });
});
