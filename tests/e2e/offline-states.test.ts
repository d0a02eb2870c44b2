/**
 * Honest offline states against the built app and the real server, in a
 * persistent Chromium profile whose service worker controls the page: a page whose data is not
 * cached shows the offline state with 重试 at once (not a skeleton) and loads by itself when the
 * network returns; the banner says 网络异常, and claims cached content only over a page that
 * shows some; 网络异常 appears once, not once per failed request; coming back online refetches
 * what is on screen; a network that returns without an event (the server restarted) is noticed.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { freePort } from '../support/ports.ts';
import { callApi, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { watchRequests } from './support/requests.ts';
import { logIn } from './support/session.ts';

const OFFLINE_HINT = '已为你显示缓存内容';

const banner = (page: Page) => page.locator('.status-banner--offline');
const offlineState = (page: Page) => page.getByRole('alert').filter({ hasText: '当前处于离线状态' });

/** Opens /home, lets the service worker take the page over and precache the app, and waits for the feed. */
async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/home`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.locator('main article').first().waitFor();
}

/**
 * Counts, from the start of each document, the toasts and the banners added to the page that
 * say 网络异常 (once each per loss of the network, or a toast per failed request).
 */
async function countNetworkNotices(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __notices: { toasts: number; banners: number } };
    w.__notices = { toasts: 0, banners: 0 };
    const count = (element: Element) => {
      if (!element.textContent?.includes('网络异常')) return;
      if (element.matches('.toast') || element.querySelector('.toast')) w.__notices.toasts += 1;
      if (element.matches('.status-banner--offline') || element.querySelector('.status-banner--offline')) w.__notices.banners += 1;
    };
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node instanceof Element) count(node);
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The query keys of the app's copy of its cache in IndexedDB. */
const persistedKeys = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open('local-cache:query-cache');
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    const client = await new Promise<{ clientState?: { queries: { queryKey: unknown }[] } } | undefined>((resolve) => {
      try {
        const reading = db.transaction('entries').objectStore('entries').get(['v', 'client']);
        reading.onsuccess = () => resolve(reading.result as { clientState?: { queries: { queryKey: unknown }[] } } | undefined);
        reading.onerror = () => resolve(undefined);
      } catch {
        resolve(undefined);
      }
    });
    db.close();
    return (client?.clientState?.queries ?? []).map((query) => JSON.stringify(query.queryKey));
  });

const notices = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notices: { toasts: number; banners: number } }).__notices);

describe('offline states', () => {
  let app: RunningApp;
  let browser: LaunchedBrowser;
  let page: Page;
  let topicName: string;
  let otherTopic: { topic_id: number; topic_name: string };
  // A port and data folder of the test's own: the server restarts on them (the last test).
  let env: { PORT: string; DATA_DIR: string } | undefined;

  beforeAll(async () => {
    env = { PORT: String(await freePort()), DATA_DIR: await mkdtemp(join(tmpdir(), 'feed-e2e-offline-')) };
    app = await startApp({ env });
    const topics = (await callApi(app, api.topicList, { size: 5 })).list;
    topicName = topics[0]!.topic_name;
    otherTopic = topics[1]!;
    browser = await launchBrowser();
    page = browser.page;
    await countNetworkNotices(page);
    await openControlled(page, app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (env) await rm(env.DATA_DIR, { recursive: true, force: true });
  });

  it('shows the offline state with 重试 on a page never visited, and loads it by itself when the network returns', async () => {
    await browser.context.setOffline(true);
    try {
      await page.goto(`${app.url}/topic/list`, { waitUntil: 'commit' });
      // The app is up (from the precache) once its banner shows.
      await banner(page).waitFor();
      await offlineState(page).waitFor();
      expect(await offlineState(page).getByRole('button', { name: '重试' }).isVisible()).toBe(true);
      expect(await page.getByRole('status', { name: '页面加载中' }).count()).toBe(0);
      // Nothing cached is shown, so the banner does not claim it.
      expect(await banner(page).textContent()).toContain('网络异常');
      expect(await banner(page).textContent()).not.toContain(OFFLINE_HINT);
    } finally {
      await browser.context.setOffline(false);
    }
    // Back online: no tap on 重试, the page loads and the offline state and the banner go.
    await page.getByText(topicName).first().waitFor();
    expect(await offlineState(page).count()).toBe(0);
    expect(await banner(page).count()).toBe(0);
  });

  it('says cached content is shown over a page that shows it', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await browser.context.setOffline(true);
    try {
      await page.reload();
      await page.locator('main article').first().waitFor();
      await banner(page).waitFor();
      await expect.poll(() => banner(page).textContent()).toContain(OFFLINE_HINT);
    } finally {
      await browser.context.setOffline(false);
    }
  });

  it('keeps another user\'s 频道 for a logged-in reader to read offline, like the rest of their centre', async () => {
    const authors = [...new Set((await callApi(app, api.channelPosts, { tab: 'all', size: 50 })).list.map((post) => post.user.uid))];
    let someone: { uid: number; channels: string[] } | undefined;
    for (const uid of authors) {
      const channels = (await callApi(app, api.userChannelList, { source: 1, visit_user_id: uid })).list.map((channel) => channel.channel_name);
      if (channels.length > 0) {
        someone = { uid, channels };
        break;
      }
    }
    expect(someone).toBeDefined();
    const reader = await launchBrowser();
    try {
      const { page: mine, context } = reader;
      await openControlled(mine, app.url);
      await logIn(app, mine, '13700000451');
      const channelsTab = async () => {
        await mine.getByRole('tab', { name: '频道' }).click();
        await mine.locator('.user-channels').getByRole('link', { name: someone!.channels[0]! }).waitFor();
      };
      await mine.goto(`${app.url}/usercenter/${someone!.uid}`);
      await channelsTab();
      // Kept in the app's own copy of what it read (the service worker's is a second, smaller one).
      await expect.poll(() => persistedKeys(mine)).toContain(JSON.stringify(['channels', 'of-user', someone!.uid]));
      await context.setOffline(true);
      await mine.reload();
      await banner(mine).waitFor();
      await channelsTab();
      expect(await mine.locator('.user-channels li').allTextContents()).toEqual(someone!.channels);
    } finally {
      await reader.close();
    }
  });

  it('moves nothing as 网络异常 comes and goes, lets taps through to what is under it, and covers no control on a PC', async () => {
    const layoutShift = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            // Everything measured since the page began (buffered), read once the observer has it.
            new PerformanceObserver((list, observer) => {
              observer.disconnect();
              resolve(list.getEntries().reduce((sum, entry) => sum + (entry as PerformanceEntry & { value: number }).value, 0));
            }).observe({ type: 'layout-shift', buffered: true });
            setTimeout(() => resolve(0), 1000);
          }),
      );
    for (const viewport of [{ width: 375, height: 812 }, { width: 1280, height: 800 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${app.url}/home`);
      await page.locator('main article').first().waitFor();
      await page.evaluate(() => document.fonts.ready);
      const before = await layoutShift();
      await browser.context.setOffline(true);
      try {
        await banner(page).waitFor();
        await banner(page).getByRole('button', { name: '重试' }).waitFor();
        const placed = await page.evaluate(() => {
          const box = document.querySelector('.status-banner--offline')!.getBoundingClientRect();
          const retry = document.querySelector('.status-banner__retry')!.getBoundingClientRect();
          const overlaps = (other: DOMRect) => other.right > box.left && other.left < box.right && other.bottom > box.top && other.top < box.bottom;
          const controls = [...document.querySelectorAll('a[href], button, input, textarea, select, [role="button"]')]
            .filter((control) => !control.closest('.status-banner') && overlaps(control.getBoundingClientRect()))
            .map((control) => `${control.tagName} ${control.textContent?.trim().slice(0, 20) ?? ''}`);
          // A tap on the message, beside 重试, reaches the page under it.
          const under = document.elementFromPoint(box.left + 24, box.top + box.height / 2);
          return { controls, tapsThrough: !under?.closest('.status-banner'), retryTakesTaps: !!document.elementFromPoint(retry.left + retry.width / 2, retry.top + retry.height / 2)?.closest('.status-banner__retry') };
        });
        expect(placed.tapsThrough).toBe(true);
        expect(placed.retryTakesTaps).toBe(true);
        // On a PC it sits in the header's empty middle; on a phone over the content, clear of 发动态.
        if (viewport.width >= 860) expect(placed.controls).toEqual([]);
        else expect(placed.controls.filter((control) => control.includes('发动态'))).toEqual([]);
      } finally {
        await browser.context.setOffline(false);
      }
      await banner(page).waitFor({ state: 'detached' });
      expect(await layoutShift(), `layout shift at ${viewport.width} px`).toBe(before);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('says 网络异常 once when the network goes, however many requests fail', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await browser.context.setOffline(true);
    try {
      await banner(page).waitFor();
      await page.locator('.toast', { hasText: '网络异常' }).waitFor();
      // Pages never visited: each of their reads fails.
      const tabs = page.getByRole('navigation', { name: '动态分类' });
      for (const tab of ['精华', '全部', '精华', '全部']) {
        // Each tab's reads have failed before the next tab.
        const requests = watchRequests(page);
        await tabs.getByRole('link', { name: tab }).click();
        await requests.settled();
        requests.stop();
      }
      await tabs.getByRole('link', { name: '精华' }).click();
      await offlineState(page).waitFor();
      await offlineState(page).getByRole('button', { name: '重试' }).click();
      await offlineState(page).waitFor();
      expect(await notices(page)).toEqual({ toasts: 1, banners: 1 });
    } finally {
      await browser.context.setOffline(false);
    }
  });

  it('refetches what is on screen when the network returns', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await browser.context.setOffline(true);
    await banner(page).waitFor();
    const refetch = page.waitForRequest((request) => new URL(request.url()).pathname === api.channelPosts.path);
    await browser.context.setOffline(false);
    // Well within the 30 s the feed counts as fresh: the reconnect itself fetches it again.
    await refetch;
    await banner(page).waitFor({ state: 'detached' });
  });

  it('notices a network that returns without an event: the server restarts, and the page that failed loads by itself', async () => {
    await app.stop();
    // A page never visited: the service worker has the app, not its data.
    await page.goto(`${app.url}/topic/comment/${otherTopic.topic_id}`);
    // The browser still says online; the service worker saw the request fail.
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await banner(page).waitFor();
    await offlineState(page).waitFor();
    app = await startApp({ env: env! });
    // Nothing but the app's own probe finds out that the server answers again.
    await page.getByText(otherTopic.topic_name).first().waitFor();
    await banner(page).waitFor({ state: 'detached' });
    expect(await offlineState(page).count()).toBe(0);
  });
});
