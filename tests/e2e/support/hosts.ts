/**
 * Recording stand-ins for the hosts' bridges, for Chromium running with a host's user agent:
 * WeChat's JS-SDK (served at its configured URL by page.route, as WeChat's CDN would) and the
 * native app's bridge (put in place by page.addInitScript before the app starts, as the app's
 * web view does). Every call lands in window.__hostCalls, in order.
 */
import type { Page } from 'playwright-core';
import { DEFAULT_CLIENT_CONFIG } from '../../../src/shared/client-config.ts';

export interface HostCall {
  api: string;
  arg: unknown;
  url: string;
}

declare global {
  interface Window {
    __hostCalls?: HostCall[];
    __nativeUser?: unknown;
  }
}

/** jweixin's surface as the app uses it; runs in the page. */
function wechatSdkRecorder(): void {
  const calls = (window.__hostCalls ??= []);
  const record = (api: string) => (arg: unknown) => {
    calls.push({ api, arg, url: location.href });
  };
  const readies: (() => void)[] = [];
  (window as unknown as { wx: unknown }).wx = {
    config(options: unknown) {
      record('config')(options);
      // WeChat checks the signature, then runs what waits for ready.
      setTimeout(() => readies.splice(0).forEach((fn) => fn()), 0);
    },
    ready(fn: () => void) {
      readies.push(fn);
    },
    error: record('error'),
    updateAppMessageShareData: record('updateAppMessageShareData'),
    updateTimelineShareData: record('updateTimelineShareData'),
    miniProgram: {
      navigateTo: record('miniProgram.navigateTo'),
      navigateBack: record('miniProgram.navigateBack'),
      postMessage: record('miniProgram.postMessage'),
    },
  };
}

/** Serves the WeChat JS-SDK's configured URL: the recorder, or a failure. */
export async function routeWechatSdk(page: Page, how: 'record' | 'fail'): Promise<void> {
  await page.route(DEFAULT_CLIENT_CONFIG.wechatJsSdkUrl, (route) =>
    how === 'fail'
      ? route.abort('failed')
      : route.fulfill({ status: 200, contentType: 'text/javascript', body: `(${wechatSdkRecorder.toString()})();` }),
  );
}

/** The native app's bridge (window.GeekTimeApp); runs in the page before the app. */
function nativeBridgeRecorder(): void {
  const calls = (window.__hostCalls ??= []);
  const record = (api: string) => (arg: unknown) => {
    calls.push({ api, arg, url: location.href });
  };
  (window as unknown as { GeekTimeApp: unknown }).GeekTimeApp = {
    getLoginInfo: () => null,
    getUserInfo: () => window.__nativeUser ?? null,
    getAudioStatus: () => 'playing',
    share: record('share'),
    openUrl: record('openUrl'),
    loginMutexAlert: record('loginMutexAlert'),
  };
}

export async function installNativeBridge(page: Page): Promise<void> {
  await page.addInitScript(nativeBridgeRecorder);
}

export async function hostCalls(page: Page, api?: string): Promise<HostCall[]> {
  const calls = await page.evaluate(() => window.__hostCalls ?? []);
  return api ? calls.filter((call) => call.api === api) : calls;
}
