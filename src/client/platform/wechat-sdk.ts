/**
 * WeChat's JS-SDK (jweixin), loaded from the configured URL inside WeChat only: the WeChat
 * browser uses its share APIs, a mini-program web view its `wx.miniProgram` bridge. The page
 * works without it: a script that fails or never arrives leaves it null.
 */
import { clientConfig } from './runtime-config.ts';

export interface WechatShareData {
  title: string;
  desc?: string;
  link: string;
  imgUrl: string;
}

export interface WechatSdk {
  config(options: {
    debug: boolean;
    appId: string;
    timestamp: number;
    nonceStr: string;
    signature: string;
    jsApiList: string[];
  }): void;
  ready(callback: () => void): void;
  error(callback: (result: unknown) => void): void;
  updateAppMessageShareData(data: WechatShareData): void;
  updateTimelineShareData(data: WechatShareData): void;
  miniProgram?: {
    navigateTo(options: { url: string }): void;
    navigateBack(options?: { delta?: number }): void;
    postMessage(options: { data: unknown }): void;
  };
}

declare global {
  interface Window {
    wx?: WechatSdk;
  }
}

const SCRIPT_TIMEOUT_MS = 10_000;

let loading: Promise<WechatSdk | null> | undefined;

export function loadWechatSdk(src: string = clientConfig.wechatJsSdkUrl): Promise<WechatSdk | null> {
  // A container that put the SDK in the page already needs no script.
  if (window.wx) return Promise.resolve(window.wx);
  loading ??= new Promise((resolve) => {
    const script = document.createElement('script');
    const done = () => {
      clearTimeout(timer);
      resolve(window.wx ?? null);
    };
    const timer = setTimeout(done, SCRIPT_TIMEOUT_MS);
    script.src = src;
    script.async = true;
    script.onload = done;
    script.onerror = done;
    document.head.append(script);
  });
  return loading;
}
