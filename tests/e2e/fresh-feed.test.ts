/**
 * A feed that stays fresh, against the built app and the real server: pull to refresh on a
 * touch screen loads a post written meanwhile (through the API, by someone else); the 有 N 条新动态
 * pill appears for a post written elsewhere when the page comes back into focus (never while it
 * is hidden) and puts it in front of the loaded pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { api } from '../../src/shared/api.ts';
import type { Post } from '../../src/shared/schemas.ts';
import { NEW_POSTS_MIN_GAP_MS } from '../../src/client/features/feed/start-fresh-feed.ts';
import { callApi, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { watchRequests } from './support/requests.ts';

let app: RunningApp;
let writer: string;
let channelId: number;
let written = 0;
const browsers: LaunchedBrowser[] = [];

beforeAll(async () => {
  app = await startApp();
  writer = await logInByApi(app, '13900000077');
  channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
});
afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await app?.stop();
});

/** A post written by someone else, through the API. */
function writeElsewhere(content: string): Promise<Post> {
  written += 1;
  return callAs<Post>(app, writer, api.postAdd.path, { content, channel_id: [channelId], attach: [], client_id: `fresh-${Date.now()}-${written}` });
}

const cards = (page: Page) => page.locator('main article');
const firstCardId = async (page: Page) => Number((await cards(page).first().getAttribute('aria-labelledby'))?.match(/post-(\d+)-/)?.[1]);

describe('pull to refresh on a touch screen', () => {
  let page: Page;
  let cdp: CDPSession;

  beforeAll(async () => {
    const browser = await launchBrowser({ viewport: { width: 375, height: 740 }, hasTouch: true });
    browsers.push(browser);
    page = browser.page;
    cdp = await page.context().newCDPSession(page);
  });

  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y?: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: y === undefined ? [] : [{ x: 180, y }] });

  it('loads a post written meanwhile, with startRefresh, 下拉刷新 and 松开刷新 on the way', async () => {
    await page.goto(`${app.url}/home`);
    await cards(page).first().waitFor();
    // Its code comes on touch screens only, right after start.
    const indicator = page.locator('.pull-refresh');
    await indicator.waitFor({ state: 'attached' });
    await page.evaluate(() => {
      (window as unknown as { refreshes: number }).refreshes = 0;
      window.addEventListener('startRefresh', () => ((window as unknown as { refreshes: number }).refreshes += 1));
    });
    const fresh = await writeElsewhere('下拉刷新时写下的一条新动态');
    expect(await firstCardId(page)).not.toBe(fresh.id);

    // A short pull does nothing.
    await touch('touchStart', 200);
    await touch('touchMove', 240);
    expect(await indicator.textContent()).toBe('下拉刷新');
    await touch('touchEnd');
    expect(await page.evaluate(() => (window as unknown as { refreshes: number }).refreshes)).toBe(0);
    expect(await indicator.textContent()).toBe('');

    await touch('touchStart', 200);
    for (let y = 220; y <= 400; y += 30) await touch('touchMove', y);
    expect(await indicator.textContent()).toBe('松开刷新');
    await touch('touchEnd');
    expect(await page.evaluate(() => (window as unknown as { refreshes: number }).refreshes)).toBe(1);
    await expect.poll(() => firstCardId(page)).toBe(fresh.id);
    await expect.poll(() => indicator.textContent()).toBe('');
  });

  it('does not pull once the page is scrolled down', async () => {
    await page.evaluate(() => window.scrollTo(0, 600));
    await touch('touchStart', 200);
    for (let y = 220; y <= 400; y += 30) await touch('touchMove', y);
    await touch('touchEnd');
    expect(await page.evaluate(() => (window as unknown as { refreshes: number }).refreshes)).toBe(1);
  });
});

describe('有 N 条新动态', () => {
  it('appears when the page comes back into focus after a post was written elsewhere, and shows it in front of the loaded pages', async () => {
    const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    browsers.push(browser);
    const page = browser.page;
    // The page's clock, moved on past the gap between checks rather than waited for.
    await page.clock.install();
    const checks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(api.channelPosts.path) && !request.postDataJSON()?.index) checks.push(request.postData() ?? '');
    });
    await page.goto(`${app.url}/home`);
    await cards(page).first().waitFor();
    // Two pages loaded.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => cards(page).count()).toBeGreaterThan(10);
    const loaded = await cards(page).count();
    await page.clock.fastForward(NEW_POSTS_MIN_GAP_MS);

    // Hidden, the page asks nothing.
    const fresh = await writeElsewhere('别处写下的一条新动态');
    checks.length = 0;
    const requests = watchRequests(page);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    await requests.settled();
    requests.stop();
    expect(checks).toEqual([]);
    expect(await page.getByRole('button', { name: /条新动态/ }).count()).toBe(0);

    // Back to the tab: one cheap check, and the pill.
    await page.evaluate(() => {
      delete (document as { visibilityState?: unknown }).visibilityState;
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    const pill = page.getByRole('button', { name: '有 1 条新动态' });
    await pill.waitFor();
    expect(checks).toHaveLength(1);
    expect(JSON.parse(checks[0]!)).toEqual({ tab: 'all', size: 10 });
    expect(await firstCardId(page)).not.toBe(fresh.id);

    await pill.click();
    await expect.poll(() => firstCardId(page)).toBe(fresh.id);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(await cards(page).count()).toBe(loaded + 1);
    expect(await pill.count()).toBe(0);
  });
});
