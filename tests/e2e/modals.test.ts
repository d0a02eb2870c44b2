/**
 * Modals are the browser's own <dialog> (showModal): what the browser does for them is checked
 * here, in Chromium, on the real app: focus starts inside and cannot leave, Escape closes,
 * focus returns to the opener, the page under it neither scrolls nor loses its place, and a
 * toast raised while it is open shows above it without taking the taps meant for the dialog.
 * Needs `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import { sharedApp, useBrowser } from './support/fixtures.ts';
import { wheelAndSettle } from './support/scroll.ts';

const app = sharedApp();
const browser = useBrowser(app, { viewport: { width: 1280, height: 860 } });
const { page } = browser;

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
    expect(await wheelAndSettle(page, 900, { x: 80, y: 700 })).toBe(1200);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('登录');
    expect(await scrollY()).toBe(1200);
    // And the page scrolls again.
    await page.mouse.wheel(0, 300);
    await expect.poll(scrollY).toBeGreaterThan(1200);
  });

  it('shows a toast raised while it is open above it, stays open, and a tap on the toast reaches the dialog under it', async () => {
    await page.getByRole('banner').getByRole('button', { name: '登录' }).click();
    const dialog = page.getByRole('dialog', { name: '手机号登录' });
    await dialog.waitFor();
    await browser.context.setOffline(true);
    try {
      // Looked at in the frame it is found in: a toast goes away by itself after a while.
      // Which is painted on top is asked of the toast made to take taps for the moment (it lets them through).
      const shown = await page.waitForFunction(() => {
        const toast = [...document.querySelectorAll<HTMLElement>('.toast')].find((element) => element.textContent?.includes('网络异常'));
        if (!toast) return undefined;
        const box = toast.getBoundingClientRect();
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        toast.style.pointerEvents = 'auto';
        const topmost = Boolean(document.elementFromPoint(x, y)?.closest('.toast'));
        toast.style.pointerEvents = '';
        // Where a tap on the toast's middle lands.
        (window as unknown as { tapped?: string }).tapped = undefined;
        document.addEventListener(
          'pointerdown',
          (event) => {
            const target = event.target as Element;
            (window as unknown as { tapped?: string }).tapped = target.closest('.toast') ? 'toast' : target.closest('dialog[open]') ? 'dialog' : 'elsewhere';
          },
          { capture: true, once: true },
        );
        return { topmost, x, y };
      });
      const { topmost, x, y } = (await shown.jsonValue())!;
      expect(topmost).toBe(true);
      await page.mouse.click(x, y);
      expect(await page.evaluate(() => (window as unknown as { tapped?: string }).tapped)).toBe('dialog');
      expect(await dialog.isVisible()).toBe(true);
    } finally {
      await browser.context.setOffline(false);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('a modal opening on PC', () => {
  /** Where the page's fixed header and its content sit, to the pixel. */
  const places = () =>
    page.evaluate(() =>
      ['.app-header .brand, .app-header__inner', '.header-compose', 'main article', '.page__sidebar'].map((selector) => {
        const element = document.querySelector(selector);
        return element ? Math.round(element.getBoundingClientRect().left * 10) / 10 : null;
      }),
    );

  it.each([
    ['the login popup', () => page.getByRole('banner').getByRole('button', { name: '登录' }).click(), '手机号登录'],
    ['a post’s 更多', () => page.locator('main article').first().getByRole('button', { name: '更多' }).click(), '选择操作'],
  ])('moves nothing behind it: %s', async (_name, open, dialogName) => {
    await page.goto(`${app.url}/home`);
    await page.getByRole('article').nth(5).waitFor();
    const before = await places();
    expect(before.every((x) => x !== null)).toBe(true);
    await open();
    await page.getByRole('dialog', { name: dialogName }).waitFor();
    expect(await places()).toEqual(before);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: dialogName }).waitFor({ state: 'detached' });
    expect(await places()).toEqual(before);
  });
});
