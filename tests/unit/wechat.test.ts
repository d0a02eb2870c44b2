/**
 * The WeChat browser's signing: on load, then 300 ms after each route change, always for the URL of
 * that moment. The SDK is a recording stand-in (a container may put it in the page before the app
 * starts); the network is the test's recording fetch.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WECHAT_RESIGN_DELAY_MS } from '../../src/shared/constants.ts';
import type { HostContext } from '../../src/client/app/host/start.ts';
import { startMiniProgram } from '../../src/client/app/host/miniprogram.ts';
import { startWechat, WECHAT_JS_API_LIST } from '../../src/client/app/host/wechat.ts';
import { setPageShare } from '../../src/client/platform/page-share.ts';
import { detectEnvironment } from '../../src/client/platform/environment.ts';
import { UA } from './user-agents.ts';

type Listener = (event: { hrefChanged: boolean }) => void;

describe('WeChat signing', () => {
  const signed: string[] = [];
  const calls: [string, unknown][] = [];
  let resolved: Listener[] = [];
  const router = { subscribe: (_event: string, fn: Listener) => (resolved.push(fn), () => undefined) };
  const changeRoute = (path: string) => {
    window.history.pushState(null, '', path);
    resolved.forEach((fn) => fn({ hrefChanged: true }));
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signed.length = 0;
    calls.length = 0;
    resolved = [];
    window.history.replaceState(null, '', '/home?utm_source=wx#top');
    const record = (name: string) => (arg: unknown) => calls.push([name, arg]);
    window.wx = {
      config: record('config'),
      ready: (fn: () => void) => fn(),
      error: record('error'),
      updateAppMessageShareData: record('friends'),
      updateTimelineShareData: record('moments'),
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        signed.push(new URL(url, location.href).searchParams.get('url') ?? '');
        return new Response(JSON.stringify({ code: 0, data: { appId: 'wxapp', timestamp: 1, nonceStr: 'n', signature: 's'.repeat(40) } }));
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    delete window.wx;
  });

  it('signs the URL (without its hash) on load, and again 300 ms after a route change, for the new URL', async () => {
    await startWechat({ router, env: detectEnvironment(UA.wechatIos) } as unknown as HostContext);
    expect(signed).toEqual([`${location.origin}/home?utm_source=wx`]);
    expect(calls.filter(([name]) => name === 'config').map(([, arg]) => arg)).toEqual([
      { debug: false, appId: 'wxapp', timestamp: 1, nonceStr: 'n', signature: 's'.repeat(40), jsApiList: WECHAT_JS_API_LIST },
    ]);
    expect(calls.find(([name]) => name === 'friends')?.[1]).toMatchObject({ link: `${location.origin}/home?utm_source=wx` });

    changeRoute('/message/detail/7?utm_source=wx');
    // A second change within the delay: one signature, for where the reader ended up.
    await vi.advanceTimersByTimeAsync(WECHAT_RESIGN_DELAY_MS - 100);
    changeRoute('/message/detail/8?utm_source=wx');
    await vi.advanceTimersByTimeAsync(WECHAT_RESIGN_DELAY_MS - 1);
    expect(signed).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(signed).toEqual([`${location.origin}/home?utm_source=wx`, `${location.origin}/message/detail/8?utm_source=wx`]);
    expect(calls.filter(([name]) => name === 'config')).toHaveLength(2);
    expect(calls.filter(([name]) => name === 'moments').at(-1)?.[1]).toMatchObject({ link: `${location.origin}/message/detail/8?utm_source=wx` });

    // The router's first resolve (or a hash change) leaves a URL that is signed already alone.
    resolved.forEach((fn) => fn({ hrefChanged: true }));
    await vi.advanceTimersByTimeAsync(WECHAT_RESIGN_DELAY_MS);
    expect(signed).toHaveLength(2);
  });

  it('shares what a page says about itself even when it says it after the signature (a slow post)', async () => {
    await startWechat({ router, env: detectEnvironment(UA.wechatIos) } as unknown as HostContext);
    changeRoute('/message/detail/9');
    await vi.advanceTimersByTimeAsync(WECHAT_RESIGN_DELAY_MS);
    expect(calls.filter(([name]) => name === 'friends').at(-1)?.[1]).toMatchObject({ title: document.title });
    const reset = setPageShare({ title: '极客0042的动态', desc: '一条慢到的动态' });
    expect(calls.filter(([name]) => name === 'friends').at(-1)?.[1]).toEqual({
      title: '极客0042的动态',
      desc: '一条慢到的动态',
      link: `${location.origin}/message/detail/9`,
      imgUrl: `${location.origin}/icons/icon-512.png`,
    });
    expect(calls.filter(([name]) => name === 'moments').at(-1)?.[1]).toMatchObject({ title: '极客0042的动态' });
    reset();
  });
});

describe('the mini-program web view', () => {
  const posted: unknown[] = [];
  let resolved: Listener[] = [];
  const router = { subscribe: (_event: string, fn: Listener) => (resolved.push(fn), () => undefined) };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    posted.length = 0;
    resolved = [];
    window.history.replaceState(null, '', '/home');
    window.wx = { miniProgram: { postMessage: (message: unknown) => posted.push(message), navigateTo: () => undefined } } as unknown as typeof window.wx;
  });
  afterEach(() => {
    vi.useRealTimers();
    delete window.wx;
  });

  it('posts the share content on load, after a route change, and again when the page says more later', async () => {
    await startMiniProgram({ router, env: detectEnvironment(UA.miniProgram) } as unknown as HostContext);
    expect(posted).toHaveLength(1);
    // The first page's own resolve: the same content, no second post.
    resolved.forEach((fn) => fn({ hrefChanged: true }));
    await vi.advanceTimersByTimeAsync(WECHAT_RESIGN_DELAY_MS);
    expect(posted).toHaveLength(1);

    window.history.pushState(null, '', '/message/detail/9');
    resolved.forEach((fn) => fn({ hrefChanged: true }));
    await vi.advanceTimersByTimeAsync(WECHAT_RESIGN_DELAY_MS);
    expect(posted).toHaveLength(2);
    const reset = setPageShare({ title: '极客0042的动态' });
    expect(posted).toHaveLength(3);
    expect(posted.at(-1)).toMatchObject({ data: { type: 'share', title: '极客0042的动态', link: `${location.origin}/message/detail/9` } });
    reset();
  });
});
