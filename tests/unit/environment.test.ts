import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  appVersionAtLeast,
  compareVersions,
  currentEnvironment,
  detectEnvironment,
  nativeLoginUserAvailable,
  sendsAppHeaders,
} from '../../src/client/platform/environment.ts';

const UA = {
  iosSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iosApp: (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 GeekTime/${v}`,
  androidApp: (v: string) =>
    `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0 Mobile Safari/537.36 geektime/${v}`,
  harmonyApp: (v: string) =>
    `Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile GeekTime/${v}`,
  harmonyAndroidBased:
    'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0 Mobile Safari/537.36',
  harmonyBrowser:
    'Mozilla/5.0 (Phone; HarmonyOS 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; V2183A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  miniProgram:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.44(0x18002c2d) NetType/WIFI Language/zh_CN miniProgram/wx1234567890',
  wechatPc:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x6309092b) XWEB/9129 Flue',
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
};

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
