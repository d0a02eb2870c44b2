import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  appVersionAtLeast,
  compareVersions,
  currentEnvironment,
  detectEnvironment,
  nativeLoginUserAvailable,
  sendsAppHeaders,
} from '../../src/client/platform/environment.ts';
import { UA } from './user-agents.ts';

describe('detectEnvironment', () => {
  it('recognises the native app by GeekTime/<version>', () => {
    expect(detectEnvironment(UA.iosApp('2.8.3'))).toEqual({ kind: 'app', os: 'ios', appVersion: '2.8.3', isMobileDevice: true });
    expect(detectEnvironment(UA.androidApp('2.7.3'))).toEqual({
      kind: 'app',
      os: 'android',
      appVersion: '2.7.3',
      isMobileDevice: true,
    });
    expect(detectEnvironment(UA.harmonyApp('1.0.0'))).toMatchObject({ kind: 'app', os: 'harmony', appVersion: '1.0.0' });
  });

  it('does not take a bare "geekbang" as the app', () => {
    expect(detectEnvironment(`${UA.iosSafari} geekbang`).kind).toBe('browser');
  });

  it('recognises WeChat and the mini-program', () => {
    expect(detectEnvironment(UA.wechatAndroid)).toMatchObject({ kind: 'wechat', os: 'android', appVersion: null });
    expect(detectEnvironment(UA.wechatPc)).toMatchObject({ kind: 'wechat', os: 'other', isMobileDevice: false });
    expect(detectEnvironment(UA.miniProgram)).toMatchObject({ kind: 'wechat-miniprogram', os: 'ios' });
    expect(detectEnvironment(UA.wechatAndroid, { wxjsEnvironment: 'miniprogram' }).kind).toBe('wechat-miniprogram');
  });

  it('recognises plain browsers and their OS', () => {
    expect(detectEnvironment(UA.iosSafari)).toEqual({ kind: 'browser', os: 'ios', appVersion: null, isMobileDevice: true });
    expect(detectEnvironment(UA.desktopChrome)).toEqual({ kind: 'browser', os: 'other', appVersion: null, isMobileDevice: false });
    expect(detectEnvironment(UA.macSafari)).toMatchObject({ os: 'other', isMobileDevice: false });
    expect(detectEnvironment(UA.macSafari, { maxTouchPoints: 5 })).toMatchObject({ os: 'ios', isMobileDevice: true });
    expect(detectEnvironment(UA.androidTablet)).toMatchObject({ os: 'android', isMobileDevice: true });
    expect(detectEnvironment('')).toEqual({ kind: 'browser', os: 'other', appVersion: null, isMobileDevice: false });
  });

  it('tells HarmonyOS NEXT from Android-based HarmonyOS', () => {
    expect(detectEnvironment(UA.harmonyBrowser).os).toBe('harmony');
    expect(detectEnvironment(UA.harmonyAndroidBased).os).toBe('android');
  });
});

describe('currentEnvironment', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete (window as Window & { __wxjs_environment?: unknown }).__wxjs_environment;
  });

  it('reads navigator.userAgent and the WeChat flag', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(UA.iosApp('2.9.0'));
    expect(currentEnvironment()).toMatchObject({ kind: 'app', appVersion: '2.9.0' });
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(UA.wechatAndroid);
    expect(currentEnvironment().kind).toBe('wechat');
    (window as Window & { __wxjs_environment?: unknown }).__wxjs_environment = 'miniprogram';
    expect(currentEnvironment().kind).toBe('wechat-miniprogram');
  });
});

describe('versions', () => {
  it('compares dotted versions numerically', () => {
    expect(compareVersions('2.8.3', '2.8.3')).toBe(0);
    expect(compareVersions('2.8', '2.8.0')).toBe(0);
    expect(compareVersions('2.10.0', '2.9.9')).toBe(1);
    expect(compareVersions('2.7.2', '2.7.10')).toBe(-1);
    expect(compareVersions('3', '2.99.99')).toBe(1);
    expect(compareVersions('1.1.12', '1.1.3')).toBe(1);
    expect(compareVersions('2.x', '2.0')).toBe(0);
  });

  it('gates on the app version only inside the app', () => {
    expect(appVersionAtLeast(detectEnvironment(UA.iosApp('2.8.3')), '2.8.3')).toBe(true);
    expect(appVersionAtLeast(detectEnvironment(UA.iosApp('2.8.2')), '2.8.3')).toBe(false);
    expect(appVersionAtLeast(detectEnvironment(UA.iosSafari), '0.0.1')).toBe(false);
    expect(nativeLoginUserAvailable(detectEnvironment(UA.androidApp('2.5.1')))).toBe(true);
    expect(nativeLoginUserAvailable(detectEnvironment(UA.androidApp('2.5.0')))).toBe(false);
  });

  it('sends app headers on iOS 2.6.0+, Android 2.7.3+ and Harmony', () => {
    expect(sendsAppHeaders(detectEnvironment(UA.iosApp('2.6.0')))).toBe(true);
    expect(sendsAppHeaders(detectEnvironment(UA.iosApp('2.5.9')))).toBe(false);
    expect(sendsAppHeaders(detectEnvironment(UA.androidApp('2.7.3')))).toBe(true);
    expect(sendsAppHeaders(detectEnvironment(UA.androidApp('2.7.2')))).toBe(false);
    expect(sendsAppHeaders(detectEnvironment(UA.androidApp('2.6.9')))).toBe(false);
    expect(sendsAppHeaders(detectEnvironment(UA.harmonyApp('1.0.0')))).toBe(true);
    expect(sendsAppHeaders(detectEnvironment(UA.wechatAndroid))).toBe(false);
    expect(sendsAppHeaders(detectEnvironment(UA.harmonyBrowser))).toBe(false);
  });
});
