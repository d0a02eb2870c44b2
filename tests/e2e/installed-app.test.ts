/**
 * The installed app (issue 9, item 3) against the built app and the real server, in a persistent
 * Chromium profile whose service worker controls the page: missing files are the server's 404
 * through the worker too, never the app shell.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';

/** Opens /home and lets the service worker take the page over. */
async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/home`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

describe('the installed app', () => {
  let app: RunningApp;
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    page = browser.page;
    await openControlled(page, app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('opens a missing file as the server answers it, a 404, never the app shell', async () => {
    for (const path of ['/assets/index-missing.js', '/icons/none.png', '/favicon-x.png', '/deep/folder/style.css']) {
      const response = await page.goto(`${app.url}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(response?.fromServiceWorker(), path).toBe(false);
      expect(await response?.text(), path).not.toContain('<div id="root">');
    }
    // A page of the app with a link in its query is still a page, from the worker.
    const share = await page.goto(`${app.url}/share-target?url=${encodeURIComponent('https://example.com/a/page.html')}`);
    expect(share?.fromServiceWorker()).toBe(true);
    expect(await share?.text()).toContain('<div id="root">');
  });
});
