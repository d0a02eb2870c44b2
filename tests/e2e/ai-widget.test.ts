/**
 * The AI promo never lies over a control of the page: on a phone and at 1280, 1024 and 860 px (no
 * room for it beside the 1200 px page) it waits docked at the window's edge, at 1920 beside the
 * page, and no button, link or text field of /home or of a post, at the top, the middle or the
 * bottom of the page, is under it. Brought out with a tap it shows whole, over none either, and
 * goes back to the edge when the reader scrolls or taps on.
 * Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { DOCK_VISIBLE_PX, PC_DOCK_VISIBLE_PX, roomBesideContent } from '../../src/client/app/layout/widget-position.ts';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { callApi } from './support/app.ts';
import { sharedApp, withBrowser } from './support/fixtures.ts';

const app = sharedApp();

/** The page's controls under the widget now: for points across its box, what lies beneath it. */
function controlsUnderWidget(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const widget = document.querySelector('.ai-widget');
    if (!widget) return ['(no widget)'];
    const box = widget.getBoundingClientRect();
    const found = new Set<string>();
    for (let x = Math.max(0, box.left); x < Math.min(box.right, document.documentElement.clientWidth); x += 4) {
      for (let y = Math.max(0, box.top); y < Math.min(box.bottom, innerHeight); y += 4) {
        const under = document.elementsFromPoint(x, y).find((element) => !widget.contains(element));
        const control = under?.closest('a, button, textarea, input, select, [role="button"]');
        if (control) found.add(`${control.tagName} ${control.textContent?.trim().slice(0, 20) ?? ''}`);
      }
    }
    return [...found];
  });
}

async function everyScroll(page: Page, check: () => Promise<void>): Promise<void> {
  for (const at of [0, 0.5, 1]) {
    // The scroll event comes with the next frame: waited for, so that it cannot dock a widget tapped after it.
    await page.evaluate(async (share) => {
      scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * share);
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    }, at);
    await check();
  }
}

/** The AI page the promo asked to open (window.open is kept from leaving the machine), cleared as read. */
const takeOpened = (page: Page): Promise<string | undefined> =>
  page.evaluate(() => {
    const seen = window as { aiOpened?: string };
    const url = seen.aiOpened;
    delete seen.aiOpened;
    return url;
  });

/**
 * Taps the docked promo on the part that shows (clear of an overlay scrollbar on a PC): it comes
 * out whole ('out'), or, with no place on screen where it would lie over no control, opens the AI
 * page at once ('opened').
 */
async function bringOut(page: Page, visiblePx: number): Promise<'out' | 'opened'> {
  await page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' }).click({ position: { x: Math.max(4, visiblePx - 16 - 8), y: 22 } });
  const body = page.getByRole('button', { name: /^AI助手\s*学习路上/ });
  let opened: string | undefined;
  await expect.poll(async () => (opened ??= await takeOpened(page)) !== undefined || (await body.count()) > 0).toBe(true);
  if (opened === undefined) return 'out';
  expect(await body.count()).toBe(0);
  return 'opened';
}

const WINDOWS = [
  { width: 375, height: 812, phone: true },
  { width: 860, height: 800, phone: false },
  { width: 1024, height: 800, phone: false },
  { width: 1280, height: 800, phone: false },
  { width: 1920, height: 1000, phone: false },
];

describe.each(WINDOWS)('the AI promo at $width px', ({ width, height, phone }) => {
  it('lies over no control of /home or of a post, docked or brought out, at the top, the middle or the bottom', { timeout: 180_000 }, async () => {
    const post = (await callApi(app, api.channelPosts, { tab: 'all', size: 50 })).list.find((p) => p.comment_count > 3)!;
    const visiblePx = phone ? DOCK_VISIBLE_PX : PC_DOCK_VISIBLE_PX;
    await withBrowser(app, { viewport: { width, height }, ...(phone ? { userAgent: PHONE_USER_AGENT, hasTouch: true } : {}) }, async ({ page }) => {
      await page.addInitScript(() => {
        window.open = (url) => {
          (window as { aiOpened?: string }).aiOpened = String(url);
          return null;
        };
      });
      const outcomes: string[] = [];
      for (const path of ['/home', `/message/detail/${post.id}`]) {
        await page.goto(`${app.url}${path}`);
        await page.locator('main article').first().waitFor();
        // Beside a wide page it shows whole; elsewhere it waits docked at the edge.
        const docks = !roomBesideContent(width) || phone;
        await (docks ? page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' }) : page.getByRole('button', { name: /^AI助手\s*学习路上/ })).waitFor();
        await everyScroll(page, async () => {
          expect(await controlsUnderWidget(page)).toEqual([]);
          if (!docks) return;
          const outcome = await bringOut(page, visiblePx);
          outcomes.push(`${path} ${outcome}`);
          expect(await controlsUnderWidget(page), `brought out on ${path}`).toEqual([]);
          // Scrolling on puts it back at the edge.
          await page.evaluate(() => window.dispatchEvent(new Event('scroll')));
          await page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' }).waitFor();
        });
      }
      if (!roomBesideContent(width) || phone) {
        // The feed has room for it whole at every place.
        expect(outcomes.filter((outcome) => outcome.startsWith('/home'))).toEqual(['/home out', '/home out', '/home out']);
        // A tap elsewhere puts it back too.
        await page.goto(`${app.url}/home`);
        await bringOut(page, visiblePx);
        await page.locator('main').dispatchEvent('pointerdown');
        await page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' }).waitFor();
        expect(await controlsUnderWidget(page)).toEqual([]);
      }
    });
  });
});
