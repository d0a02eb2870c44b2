/**
 * Client resilience (issue 12, item 7) in Chromium against the real built app: a draft outlives
 * a crashed tab, storage pressure and a browser without IndexedDB; a page whose code cannot be
 * loaded offers 刷新页面 instead of a white screen. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

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
      '**/assets/pages.lazy-*.js',
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
});
