/**
 * Client resilience in Chromium against the real built app: a draft outlives
 * a crashed tab, storage pressure and a browser without IndexedDB; a page whose code cannot be
 * loaded offers 刷新页面 instead of a white screen. Needs `npm run build` first.
 */
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app.ts';
import { storedDraft } from './support/stored-draft.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { logIn } from './support/session.ts';
import { goOffline } from './support/offline.ts';

const PC = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 740 };
const UNAVAILABLE = '当前浏览器无法使用本地存储，草稿只保存在本页';
const FULL = '存储空间不足，草稿只保存在本页';

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

async function openComposer(page: Page) {
  const mobile = page.viewportSize()!.width < 860;
  if (mobile) await page.getByRole('button', { name: '发动态' }).last().click();
  else await page.getByRole('banner').getByRole('button', { name: '发动态' }).click();
  const composer = page.getByRole('dialog', { name: '发动态' });
  await composer.getByRole('textbox', { name: '动态内容' }).waitFor();
  return composer;
}

async function closeComposer(page: Page) {
  const composer = page.getByRole('dialog', { name: '发动态' });
  await composer.getByRole('button', { name: '关闭' }).click();
  await composer.waitFor({ state: 'detached' });
}

/** Kills the tab's renderer (as a crash does: no pagehide, no unload) and waits for it to be gone. */
async function crash(context: BrowserContext, page: Page): Promise<void> {
  const crashed = page.waitForEvent('crash');
  const cdp = await context.newCDPSession(page);
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;
  // Closed as the browser's "Aw, Snap!" tab would be: a crashed target breaks context-wide calls.
  await page.close();
}

describe('a page whose code cannot be loaded (a deploy removed it, the network dropped it)', () => {
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    // Without a service worker every request meets page.route (the worker would answer from its precache).
    browser = await launchBrowser({ viewport: { width: 1280, height: 860 }, blockServiceWorkers: true });
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function reloadOffered(failing: string, open: () => Promise<void>, shown: () => Promise<unknown>) {
    await page.route(failing, (route) => route.abort());
    await open();
    const error = page.getByRole('alert').filter({ hasText: '加载失败' });
    await error.getByRole('button', { name: '刷新页面' }).waitFor();
    expect(await error.textContent()).toContain('请检查网络后刷新页面');
    // 重试 would import the same failed module again: only a reload can bring the code.
    expect(await error.getByRole('button', { name: '重试' }).count()).toBe(0);
    await page.unroute(failing);
    await error.getByRole('button', { name: '刷新页面' }).click();
    await shown();
  }

  it('a lazy route (the route\'s own lazy import, reported by vite:preloadError) shows 刷新页面, which reloads into the page', async () => {
    await reloadOffered(
      '**/assets/statement.lazy-*.js',
      () => page.goto(`${app.url}/statement`).then(() => undefined),
      () => page.getByRole('heading', { name: '社区声明' }).waitFor(),
    );
  });

  it('a page loaded through loadChunk (a ChunkLoadError), reached from the feed, shows 刷新页面 and reloads into it', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await reloadOffered(
      '**/assets/user.lazy-*.js',
      () => page.locator('main article .post-card__author').first().click(),
      () => page.waitForURL(/\/usercenter\/\d+/).then(() => page.getByRole('tab').first().waitFor()),
    );
    expect(page.url()).toMatch(/\/usercenter\/\d+/);
  });

  it('with every later chunk gone (a deploy removed the whole old build), the error state\'s own code too, the page still offers 刷新页面', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await reloadOffered(
      '**/assets/*.js',
      () => page.locator('main article .post-card__author').first().click(),
      () => page.waitForURL(/\/usercenter\/\d+/).then(() => page.getByRole('tab').first().waitFor()),
    );
  });
});

describe('a crashed tab', () => {
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    browser = await launchBrowser({ viewport: PC });
    await browser.page.goto(`${app.url}/home`);
    await browser.page.locator('main article').first().waitFor();
    await logIn(app, browser.page, '13900001201');
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The last tab crashed: a new one opens the composer. */
  async function composerInNewTab(): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(`${app.url}/home?compose=1`);
    await page.getByRole('dialog', { name: '发动态' }).getByRole('textbox', { name: '动态内容' }).waitFor();
    return page;
  }

  it('keeps the composer\'s text typed before the draft\'s save, and the save itself', async () => {
    let page = browser.context.pages().at(-1)!;
    const composer = await openComposer(page);
    const saved = `崩溃前保存过的草稿 ${Date.now()}`;
    await composer.getByRole('textbox', { name: '动态内容' }).fill(saved);
    await expect.poll(() => storedDraft(page).then((draft) => draft?.content)).toBe(saved);
    // The last words, and at once the crash: within the 300 ms before the next IndexedDB write.
    await composer.getByRole('textbox', { name: '动态内容' }).press('End');
    await page.keyboard.type('，崩溃前最后几个字');
    await crash(browser.context, page);

    page = await composerInNewTab();
    const back = page.getByRole('dialog', { name: '发动态' }).getByRole('textbox', { name: '动态内容' });
    await expect.poll(() => back.inputValue()).toBe(`${saved}，崩溃前最后几个字`);
    // Taken back into IndexedDB, where it stays.
    await expect.poll(() => storedDraft(page).then((draft) => draft?.content)).toBe(`${saved}，崩溃前最后几个字`);
    await closeComposer(page);
  });

  it('keeps a picture just added: it is written at once, not with the next save', async () => {
    let page = browser.context.pages().at(-1)!;
    // Its upload refused, the picture stays a blob in the draft (uploaded, it would leave it).
    await page.route('**/serv/v1/upload/image', (route) => route.abort());
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    const composer = await openComposer(page);
    const picture = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3478f6' } }).png().toBuffer();
    await composer.getByLabel('选择图片').setInputFiles([{ name: 'just-added.png', mimeType: 'image/png', buffer: picture }]);
    const written = await storedDraft(page);
    expect(written?.blobs).toHaveLength(1);
    expect(written!.blobs[0]).toBeGreaterThan(0);
    await crash(browser.context, page);

    page = await composerInNewTab();
    const back = page.getByRole('dialog', { name: '发动态' });
    await expect.poll(() => back.locator('.composer-image img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth))).toEqual([320]);
  });

  it('keeps a comment being written under a post', async () => {
    let page = browser.context.pages().at(-1)!;
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    const postId = (await page.locator('main article').first().getAttribute('aria-labelledby'))!.match(/post-(\d+)-/)![1];
    await page.goto(`${app.url}/message/detail/${postId}`);
    const comment = `崩溃前写的评论 ${Date.now()}`;
    await page.getByRole('textbox', { name: '写评论' }).fill(comment);
    await crash(browser.context, page);

    page = await browser.context.newPage();
    await page.goto(`${app.url}/message/detail/${postId}`);
    await expect.poll(() => page.getByRole('textbox', { name: '写评论' }).inputValue()).toBe(comment);
  });
});

/**
 * Storage pressure, as Chromium reports it: a write's transaction aborts with QuotaExceededError.
 * (A real quota through CDP's Storage.overrideQuotaForOrigin refuses writes in a bare page, but
 * did not in this app's profile, so the pressure is made here.) While `pressure.until` is
 * 'room', writes to the drafts' and the outbox's stores are refused until the persisted query
 * cache is cleared, as a disk that the cache filled; 'never': refused whatever is cleared.
 */
function storagePressure() {
  const pressure = { until: 'off' as 'off' | 'room' | 'never', refused: 0, cacheCleared: 0 };
  (window as unknown as { pressure: typeof pressure }).pressure = pressure;
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    const request = put.apply(this, args);
    const ours = ['horde-drafts', 'horde-outbox'].includes(this.transaction.db.name);
    if (ours && pressure.until !== 'off') {
      pressure.refused += 1;
      const transaction = this.transaction;
      Object.defineProperty(transaction, 'error', { value: new DOMException('The quota has been exceeded.', 'QuotaExceededError') });
      queueMicrotask(() => transaction.abort());
    }
    return request;
  };
  const clear = IDBObjectStore.prototype.clear;
  IDBObjectStore.prototype.clear = function (this: IDBObjectStore) {
    if (this.transaction.db.name === 'local-cache:query-cache') {
      pressure.cacheCleared += 1;
      if (pressure.until === 'room') pressure.until = 'off';
    }
    return clear.call(this);
  };
}

describe('storage pressure (writes refused with QuotaExceededError)', () => {
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser({ viewport: PC });
    page = browser.page;
    await page.addInitScript(storagePressure);
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    // The app installed and in control, as a user who goes offline has it: the 网络异常 banner's
    // code then comes from the service worker's precache.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.locator('main article').first().waitFor();
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await logIn(app, page, '13900001202');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const pressure = () => page.evaluate(() => (window as unknown as { pressure: { until: string; refused: number; cacheCleared: number } }).pressure);
  const press = (until: 'off' | 'room' | 'never') =>
    page.evaluate((value) => void ((window as unknown as { pressure: { until: string } }).pressure.until = value), until);
  const queryCacheEntries = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const opening = indexedDB.open('local-cache:query-cache');
          opening.onsuccess = () => {
            const count = opening.result.transaction('entries').objectStore('entries').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );

  it('a draft refused for want of room drops the persisted query cache and is stored', async () => {
    await expect.poll(queryCacheEntries).toBeGreaterThan(0);
    const composer = await openComposer(page);
    await press('room');
    const text = `空间紧张时写的草稿 ${Date.now()}`;
    await composer.getByRole('textbox', { name: '动态内容' }).fill(text);
    await expect.poll(() => storedDraft(page).then((draft) => draft?.content)).toBe(text);
    expect(await pressure()).toMatchObject({ refused: 1, cacheCleared: 1 });
    expect(await page.getByText(FULL).count()).toBe(0);
    await closeComposer(page);
  });

  it('a draft still refused stays in the page with a toast; a post made of it waits in memory and is sent', async () => {
    let composer = await openComposer(page);
    await press('never');
    const text = `存不下的草稿 ${Date.now()}`;
    await composer.getByRole('textbox', { name: '动态内容' }).fill(text);
    await page.getByText(FULL).waitFor();
    expect(await storedDraft(page).then((draft) => draft?.content)).not.toBe(text);
    await closeComposer(page);
    composer = await openComposer(page);
    expect(await composer.getByRole('textbox', { name: '动态内容' }).inputValue()).toBe(text);

    // Published offline: the outbox cannot store it either, so it waits in memory, and goes.
    // Once the app knows (its banner, under the composer): the 网络异常 toast, coming later, would
    // take the place of the outbox's (one toast at a time).
    await goOffline(page);
    // Its 网络异常 toast shows in the composer, over its middle; a tap there reaches the composer.
    await composer.locator('.toast', { hasText: '网络异常' }).waitFor();
    await composer.getByRole('region', { name: /^选择频道/ }).getByRole('button').first().click();
    await composer.getByRole('button', { name: '发布' }).click();
    await page.getByText('已加入待发送，联网后自动发布').waitFor();
    await browser.context.setOffline(false);
    await expect.poll(() => page.locator('main article').first().textContent()).toContain(text);
    // Nothing stored it: the outbox's database holds no copy to be sent again.
    expect(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const opening = indexedDB.open('horde-outbox');
            opening.onsuccess = () => {
              const count = opening.result.transaction('writes').objectStore('writes').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      ),
    ).toBe(0);
    await press('off');
  });
});

/** Browsers that keep nothing: each makes IndexedDB fail its own way before the app's code runs. */
const withoutIndexedDb = [
  {
    name: 'indexedDB.open fails with InvalidStateError (Firefox private mode of old)',
    script: () => {
      IDBFactory.prototype.open = function open() {
        const request = new EventTarget() as EventTarget & Record<string, unknown>;
        Object.assign(request, { onerror: null, onsuccess: null, onupgradeneeded: null, onblocked: null, readyState: 'done', result: undefined });
        request.error = new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError');
        setTimeout(() => {
          const event = new Event('error', { cancelable: true });
          (request.onerror as ((event: Event) => void) | null)?.(event);
          request.dispatchEvent(event);
        });
        return request as unknown as IDBOpenDBRequest;
      };
    },
  },
  {
    name: 'indexedDB is undefined (some web views)',
    script: () => Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true }),
  },
  {
    name: 'indexedDB throws on access (storage disabled)',
    script: () =>
      Object.defineProperty(window, 'indexedDB', {
        configurable: true,
        get() {
          throw new DOMException('Access to the IndexedDB API is denied in this context.', 'SecurityError');
        },
      }),
  },
];

describe.each(withoutIndexedDb)('without IndexedDB: $name, at 375 px', ({ script }) => {
  let browser: LaunchedBrowser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser({ viewport: PHONE });
    page = browser.page;
    await page.addInitScript(script);
    // Every toast that says the message, counted as it is added to the page.
    await page.addInitScript((message) => {
      const seen: string[] = [];
      (window as unknown as { notices: string[] }).notices = seen;
      // Each time the message appears where it was not shown (a toast moving into a dialog is not a new one).
      let shown = false;
      new MutationObserver(() => {
        const now = document.body?.textContent?.includes(message) ?? false;
        if (now && !shown) seen.push(`${Math.round(performance.now())} ms`);
        shown = now;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    }, UNAVAILABLE);
    page.on('pageerror', (error) => errors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the feed and says once that drafts stay on this page; the composer keeps a draft while the page lives; posting works', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    // Told at the app's start in a toast of a moment: counted as it came (a wait for it on screen
    // could begin after it had gone).
    const notices = () => page.evaluate(() => (window as unknown as { notices: string[] }).notices.length);
    await expect.poll(notices).toBe(1);

    await logIn(app, page, `139000013${withoutIndexedDb.findIndex((kind) => kind.script === script)}0`);
    let composer = await openComposer(page);
    const text = `不能存储时写的草稿 ${Date.now()}`;
    await composer.getByRole('textbox', { name: '动态内容' }).fill(text);
    await closeComposer(page);
    composer = await openComposer(page);
    expect(await composer.getByRole('textbox', { name: '动态内容' }).inputValue()).toBe(text);

    await composer.getByRole('region', { name: /^选择频道/ }).getByRole('button').first().click();
    await composer.getByRole('button', { name: '发布' }).click();
    await page.getByText('发布成功').waitFor();
    await expect.poll(() => page.locator('main article').first().textContent()).toContain(text);

    // Offline, a post waits in the outbox, here in memory, and goes when the network is back.
    composer = await openComposer(page);
    await browser.context.setOffline(true);
    const later = `离线时写的动态 ${Date.now()}`;
    await composer.getByRole('textbox', { name: '动态内容' }).fill(later);
    await composer.getByRole('region', { name: /^选择频道/ }).getByRole('button').first().click();
    await composer.getByRole('button', { name: '发布' }).click();
    await page.getByText('已加入待发送，联网后自动发布').waitFor();
    await browser.context.setOffline(false);
    await expect.poll(() => page.locator('main article').first().textContent()).toContain(later);
    expect(await notices()).toBe(1);
    expect(errors).toEqual([]);
  });
});
