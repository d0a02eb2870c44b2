/**
 * The app inside its hosts, in Chromium with each host's user agent and a recording stand-in of
 * each bridge (support/hosts.ts), against the built app and the real server: the WeChat browser
 * signs the JS-SDK config on load and again after a route change, for the new URL, and sets the
 * share content; a failing SDK leaves the app working; the native app opens posts, users and
 * learning-site links by app link, shares through its bridge with the payload, follows its login
 * events and its audio status; an old app gets the upgrade message; the mini-program posts its
 * share content and sends links out through its bridge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '../../src/shared/api.ts';
import type { Post } from '../../src/shared/schemas.ts';
import { DEFAULT_SHARE_PLATFORMS } from '../../src/client/platform/native-share.ts';
import { signShareUrl } from '../../src/server/services/wechat.ts';
import { callApi, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { hostCalls, installNativeBridge, routeWechatSdk } from './support/hosts.ts';
import { watchRequests } from './support/requests.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { UA } from '../unit/user-agents.ts';

const MOBILE = { width: 375, height: 740 };
const COURSE_LINK = 'https://time.geekbang.org/course/intro/100';

let app: RunningApp;
let coursePost: Post;
const browsers: LaunchedBrowser[] = [];

beforeAll(async () => {
  app = await startApp();
  // The newest post of /home links to a course of the learning site.
  const cookie = await logInByApi(app, '13900000042');
  const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
  coursePost = await callAs<Post>(app, cookie, api.postAdd.path, {
    content: `这门课讲得很清楚，推荐：${COURSE_LINK} 一起学`,
    channel_id: [channelId],
    attach: [],
    client_id: `host-platforms-${Date.now()}`,
  });
});
afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await app?.stop();
});

async function open(userAgent: string): Promise<Page> {
  const browser = await launchBrowser({ viewport: MOBILE, userAgent });
  browsers.push(browser);
  return browser.page;
}

const cards = (page: Page) => page.locator('main article');

/** /home with its posts, once the host's bridge is in place (html[data-host], when it loads). */
async function openHome(page: Page, query = '', host?: string): Promise<void> {
  await page.goto(`${app.url}/home${query}`);
  await cards(page).first().waitFor();
  if (host) await page.locator(`html[data-host="${host}"]`).waitFor({ state: 'attached' });
}

/** A tap on the text of the card of `postId`, as a reader opens a post. */
/** A tap on the card's first words (its middle may be a link, by how the text wraps with the fonts at hand). */
async function tapCard(page: Page, postId: number): Promise<void> {
  await page.locator(`main article[aria-labelledby="post-${postId}-author"] .post-content__text`).first().click({ position: { x: 6, y: 8 } });
}

async function firstPostId(page: Page): Promise<number> {
  const label = await cards(page).first().getAttribute('aria-labelledby');
  return Number(label?.match(/post-(\d+)-author/)?.[1]);
}

describe('in the WeChat browser', () => {
  it('signs the JS-SDK config on load and again after a route change, each time for the current URL, and sets the share content', async () => {
    const page = await open(UA.wechatAndroid);
    await routeWechatSdk(page, 'record');
    const signed: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === api.wxShareSign.path) signed.push(url.searchParams.get('url') ?? '');
    });
    await openHome(page, '?utm_source=wechat');
    const home = `${app.url}/home?utm_source=wechat`;
    await expect.poll(() => hostCalls(page, 'updateAppMessageShareData')).toHaveLength(1);
    expect(signed).toEqual([home]);

    const [config] = await hostCalls(page, 'config');
    const options = config!.arg as { appId: string; timestamp: number; nonceStr: string; signature: string; jsApiList: string[] };
    expect(options.appId).toBe('wx0000000000000000');
    expect(options.jsApiList).toEqual(expect.arrayContaining(['updateAppMessageShareData', 'updateTimelineShareData']));
    // The server's real signature of exactly this URL.
    const expected = signShareUrl({ appId: options.appId, jsapiTicket: 'demo-jsapi-ticket', url: home, now: options.timestamp * 1000, nonce: options.nonceStr });
    expect(options.signature).toBe(expected.signature);
    expect((await hostCalls(page, 'updateAppMessageShareData'))[0]!.arg).toEqual({
      title: '极客时间',
      desc: expect.stringContaining('极客时间社区'),
      link: home,
      imgUrl: `${app.url}/icons/icon-512.png`,
    });
    expect((await hostCalls(page, 'updateTimelineShareData'))[0]!.arg).toEqual({ title: '极客时间', link: home, imgUrl: `${app.url}/icons/icon-512.png` });

    const postId = await firstPostId(page);
    const nick = (await callApi(app, api.postDetail, { post_id: postId })).user.nick;
    await tapCard(page, postId);
    await page.waitForURL(`**/message/detail/${postId}?utm_source=wechat`);
    const detail = `${app.url}/message/detail/${postId}?utm_source=wechat`;
    await expect.poll(() => signed).toEqual([home, detail]);
    await expect.poll(() => hostCalls(page, 'config')).toHaveLength(2);
    const [, again] = await hostCalls(page, 'config');
    const resigned = again!.arg as typeof options;
    expect(resigned.signature).toBe(
      signShareUrl({ appId: resigned.appId, jsapiTicket: 'demo-jsapi-ticket', url: detail, now: resigned.timestamp * 1000, nonce: resigned.nonceStr }).signature,
    );
    // The post speaks for itself when shared.
    await expect.poll(async () => (await hostCalls(page, 'updateAppMessageShareData')).at(-1)?.arg).toMatchObject({
      title: `${nick}的动态`,
      link: detail,
    });
  });

  it('works when the JS-SDK cannot load: the feed shows and nothing is signed', async () => {
    const page = await open(UA.wechatIos);
    await routeWechatSdk(page, 'fail');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const requests = watchRequests(page);
    await openHome(page);
    await requests.settled();
    expect(await cards(page).count()).toBeGreaterThan(0);
    expect(requests.made.filter((request) => request.url().includes(api.wxShareSign.path))).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.getByRole('alert').textContent()).toBe('');
  });
});

describe('in the native app', () => {
  it('opens a post, its author and a course link by app link, and shares through the bridge with the payload', async () => {
    const page = await open(UA.iosApp('2.8.3'));
    await installNativeBridge(page);
    await openHome(page, '', 'app');
    expect(await firstPostId(page)).toBe(coursePost.id);

    await tapCard(page, coursePost.id);
    await expect.poll(() => hostCalls(page, 'openUrl')).toHaveLength(1);
    expect((await hostCalls(page, 'openUrl'))[0]!.arg).toBe(`geektime://hordePostDetail?postId=${coursePost.id}`);
    expect(new URL(page.url()).pathname).toBe('/home');

    await cards(page).first().locator('.post-card__author').click();
    await expect.poll(async () => (await hostCalls(page, 'openUrl')).at(-1)?.arg).toBe(`geektime://hordeInfoCenter?userId=${coursePost.user.uid}`);

    await cards(page).first().getByRole('link', { name: COURSE_LINK }).click();
    await expect.poll(async () => (await hostCalls(page, 'openUrl')).at(-1)?.arg).toBe('geektime://courseIntro?id=100');
    expect(new URL(page.url()).pathname).toBe('/home');

    await cards(page).first().getByRole('button', { name: '更多' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '分享' }).click();
    await expect.poll(() => hostCalls(page, 'share')).toHaveLength(1);
    const payload = JSON.parse(String((await hostCalls(page, 'share'))[0]!.arg)) as Record<string, unknown> & { params: Record<string, unknown> };
    expect(payload).toMatchObject({
      plats: [...DEFAULT_SHARE_PLATFORMS],
      title: `${coursePost.user.nick}的动态`,
      des: expect.stringContaining('这门课讲得很清楚'),
      params: {
        title: `${coursePost.user.nick}的动态`,
        link: `${app.url}/message/detail/${coursePost.id}`,
        imgUrl: `${app.url}/icons/icon-512.png`,
      },
    });
    expect(Object.keys(payload.params).sort()).toEqual(
      ['title', 'desc', 'link', 'imgUrl', 'type', 'dataUrl', 'pagePath', 'miniID', 'weiboTitle', 'showImage'].sort(),
    );
  });

  it("follows the app's login and logout events, logs in through the app, and keeps its audio status", async () => {
    const page = await open(UA.androidApp('2.8.3'));
    await installNativeBridge(page);
    await openHome(page, '', 'app');
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: '登录' }).click();
    await expect.poll(async () => (await hostCalls(page, 'openUrl')).at(-1)?.arg).toBe('geektime://login');
    expect(await page.getByRole('dialog', { name: '手机号登录' }).count()).toBe(0);

    await page.evaluate(() => {
      window.__nativeUser = { uid: 4242, nickname: '原生用户', avatar: '', cellphone: '138****0000', create_time: 1700000000, is_student: 0, type: 1 };
      window.dispatchEvent(new Event('loginSuccess'));
    });
    await banner.getByRole('button', { name: '账号菜单：原生用户' }).waitFor();
    await page.evaluate(() => {
      window.__nativeUser = null;
      window.dispatchEvent(new Event('logoutSuccess'));
    });
    await banner.getByRole('button', { name: '登录' }).waitFor();

    // The app's player bar is up: 发动态 floats above it, and comes down when the player stops.
    const fab = page.getByRole('button', { name: '发动态' });
    expect(await page.evaluate(() => document.documentElement.dataset.appAudio)).toBe('playing');
    const above = (await fab.boundingBox())!.y;
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('appAudioStatus', { detail: 'paused' })));
    expect(await page.evaluate(() => document.documentElement.dataset.appAudio)).toBe('paused');
    await page.evaluate(() => (window as unknown as { appAudioStatus: (s: string) => void }).appAudioStatus('stopped'));
    expect(await page.evaluate(() => document.documentElement.dataset.appAudio)).toBe('stopped');
    await expect.poll(async () => Math.round((await fab.boundingBox())!.y - above)).toBe(56);
  });

  it('an app too old for the post link says 需要升级到极客时间最新版 and stays', async () => {
    const page = await open(UA.androidApp('2.7.0'));
    await installNativeBridge(page);
    await openHome(page, '', 'app');
    await tapCard(page, await firstPostId(page));
    await expect.poll(() => page.getByText('需要升级到极客时间最新版').count()).toBe(1);
    expect(await hostCalls(page, 'openUrl')).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/home');
  });
});

describe('in a mini-program web view', () => {
  it('posts the share content on load and after a route change, shares through the menu, and sends links out through the bridge', async () => {
    const page = await open(UA.miniProgram);
    await routeWechatSdk(page, 'record');
    await openHome(page, '', 'wechat-miniprogram');
    await expect.poll(() => hostCalls(page, 'miniProgram.postMessage')).toHaveLength(1);
    expect((await hostCalls(page, 'miniProgram.postMessage'))[0]!.arg).toEqual({
      data: { type: 'share', title: '极客时间', desc: expect.any(String), link: `${app.url}/home`, imgUrl: `${app.url}/icons/icon-512.png` },
    });

    await tapCard(page, coursePost.id);
    await page.waitForURL(`**/message/detail/${coursePost.id}`);
    await expect.poll(async () => (await hostCalls(page, 'miniProgram.postMessage')).at(-1)?.arg).toMatchObject({
      data: { title: `${coursePost.user.nick}的动态`, link: `${app.url}/message/detail/${coursePost.id}` },
    });

    await page.locator('main article').getByRole('button', { name: '更多' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '分享' }).click();
    await expect.poll(() => page.getByText('点击右上角「···」分享给朋友').count()).toBe(1);
    expect((await hostCalls(page, 'miniProgram.postMessage')).at(-1)?.arg).toMatchObject({
      data: { type: 'share', title: `${coursePost.user.nick}的动态`, link: `${app.url}/message/detail/${coursePost.id}` },
    });

    // A link to another site goes to the mini-program's web-view page.
    await page.locator('main article').getByRole('link', { name: COURSE_LINK }).click();
    await expect.poll(async () => (await hostCalls(page, 'miniProgram.navigateTo')).at(-1)?.arg).toEqual({
      url: `/pages/webview/webview?url=${encodeURIComponent(COURSE_LINK)}`,
    });
    expect(new URL(page.url()).pathname).toBe(`/message/detail/${coursePost.id}`);
  });
});
