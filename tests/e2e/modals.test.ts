/**
 * Modals are the browser's own <dialog> (showModal): what the browser does for them is checked
 * here, in Chromium, on the real app: focus starts inside and cannot leave, Escape closes,
 * focus returns to the opener, the page under it neither scrolls nor loses its place, and a
 * toast raised while it is open shows above it. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';

let app: RunningApp;
let browser: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser({ viewport: { width: 1280, height: 860 } });
  page = browser.page;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
/**
 * Where Tab put the focus: inside the open dialog, on the page under it (which must never
 * happen: it is inert), or out of the page into the browser's own toolbar (the body is then the
 * active element), where a native modal lets it go on its way round.
 */
const focusPlace = () =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'browser';
    return active.closest('dialog[open]') ? 'dialog' : 'page';
  });

describe('the login popup, a modal <dialog>', () => {
  it('keeps focus inside, freezes the page where it was, closes on Escape and gives focus back', async () => {
    await page.goto(`${app.url}/home`);
    await page.getByRole('article').nth(5).waitFor();
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expect.poll(scrollY).toBe(1200);

    const opener = page.getByRole('banner').getByRole('button', { name: '登录' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: '手机号登录' });
    await dialog.waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.placeholder)).toBe('请输入手机号');

    const places = new Set<string>();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      places.add(await focusPlace());
    }
    expect(places.has('dialog')).toBe(true);
    expect(places.has('page')).toBe(false);
    await page.mouse.move(80, 700);
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(300);
    expect(await scrollY()).toBe(1200);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('登录');
    expect(await scrollY()).toBe(1200);
    // And the page scrolls again.
    await page.mouse.wheel(0, 300);
    await expect.poll(scrollY).toBeGreaterThan(1200);
  });

  it('shows a toast raised while it is open above it, and stays open', async () => {
    await page.getByRole('banner').getByRole('button', { name: '登录' }).click();
    const dialog = page.getByRole('dialog', { name: '手机号登录' });
    await dialog.waitFor();
    await browser.context.setOffline(true);
    try {
      const toast = page.locator('.toast', { hasText: '网络异常' });
      await toast.waitFor();
      const box = (await toast.boundingBox())!;
      const topmost = await page.evaluate(
        ({ x, y }) => Boolean(document.elementFromPoint(x, y)?.closest('.toast')),
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(topmost).toBe(true);
      expect(await dialog.isVisible()).toBe(true);
    } finally {
      await browser.context.setOffline(false);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
