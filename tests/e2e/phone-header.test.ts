/**
 * A phone's top bar, at 320, 375 and 414 px, logged out and logged in (through the UI), with
 * 安装应用 and AI助手 both offered, in a browser, in WeChat and in the native app (which logs in
 * through its own login, told to the page by its bridge): nothing in it
 * wraps, nothing is cut (the brand's name whole, 安装应用 a pill, not an egg, its box as tall as
 * the icons' targets and centred with them), and nothing leaves the bar. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { UA } from '../unit/user-agents.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { installNativeBridge } from './support/hosts.ts';
import { logIn } from './support/session.ts';

const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });

/** What is wrong with the bar now: a text on two lines, an element cut, anything out of the bar, an egg for a pill. */
function barFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('.mobile-bar');
    if (!bar) return ['no bar'];
    const faults: string[] = [];
    const box = bar.getBoundingClientRect();
    if (bar.scrollWidth > bar.clientWidth + 1) faults.push(`the bar overflows by ${bar.scrollWidth - bar.clientWidth} px`);
    const walker = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement!;
      if (!text || parent.getBoundingClientRect().width <= 1) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (lines.size > 1) faults.push(`"${text}" wraps`);
    }
    for (const element of bar.querySelectorAll<HTMLElement>('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width <= 1 || getComputedStyle(element).display === 'none') continue;
      if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflow !== 'visible') {
        faults.push(`${element.className || element.tagName} is cut`);
      }
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) faults.push(`${element.className || element.tagName} leaves the bar`);
    }
    const icons = [...bar.querySelectorAll<HTMLElement>('.header-ai--assistant, .notice-entry, .header-user')].map((icon) => icon.getBoundingClientRect());
    for (const pill of bar.querySelectorAll<HTMLElement>('.header-ai:not(.header-ai--assistant)')) {
      const rect = pill.getBoundingClientRect();
      const style = getComputedStyle(pill);
      const drawn = rect.height - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
      // A 32 px pill, wider than tall (a machine without CJK fonts draws the words narrow).
      if (Math.round(drawn) !== 32 || rect.width <= drawn) faults.push(`${pill.textContent} is ${Math.round(rect.width)} x ${Math.round(drawn)}`);
      // Its box as tall as the icons' targets beside it, and centred with them.
      for (const icon of icons) {
        if (Math.abs(rect.height - icon.height) > 0.5 || Math.abs(rect.top + rect.height / 2 - (icon.top + icon.height / 2)) > 0.5) {
          faults.push(`${pill.textContent} is ${Math.round(rect.height)} px high at ${rect.top}, an icon beside it ${Math.round(icon.height)} px at ${icon.top}`);
        }
      }
    }
    return faults;
  });
}

/** The browser's offer to install the app, as Chromium makes it where it can, and the AI promo closed: both entries shown. */
async function offerBoth(page: Page): Promise<void> {
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt: async () => undefined, userChoice: Promise.resolve({ outcome: 'dismissed' }) });
    dispatchEvent(offer);
  });
  await page.getByRole('button', { name: '安装应用' }).waitFor();
  await page.getByRole('button', { name: /^AI助手/ }).first().waitFor();
}

let phone = 13700009000;

describe.each([
  ['a browser', undefined],
  ['WeChat', UA.wechatAndroid],
  ['the native app', UA.androidApp('2.8.3')],
] as const)('the phone’s top bar in %s', (_host, userAgent) => {
  it.each([320, 375, 414])('holds at %i px, logged out and logged in, with both entries offered', { timeout: 180_000 }, async (width) => {
    await withBrowser(app, { viewport: { width, height: 740 }, hasTouch: true, ...(userAgent ? { userAgent } : {}) }, async ({ page }) => {
      const nativeApp = userAgent === UA.androidApp('2.8.3');
      if (nativeApp) await installNativeBridge(page);
      await page.addInitScript(() => localStorage.setItem('horde:ai-widget-hidden', '1'));
      await page.goto(`${app.url}/home`);
      await page.locator('main article').first().waitFor();
      await offerBoth(page);
      expect(await barFaults(page)).toEqual([]);
      phone += 1;
      if (nativeApp) {
        await page.evaluate((cellphone) => {
          window.__nativeUser = { uid: 4242, nickname: '原生用户', avatar: '', cellphone, create_time: 1700000000, is_student: 0, type: 1 };
          window.dispatchEvent(new Event('loginSuccess'));
        }, String(phone));
      } else {
        await logIn(app, page, String(phone));
      }
      await page.getByRole('button', { name: /^账号菜单/ }).waitFor();
      await offerBoth(page);
      expect(await barFaults(page)).toEqual([]);
    });
  });
});
