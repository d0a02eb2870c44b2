/**
 * The AI promo never lies over a control of the page: at 1280, 1024 and 860 px (no room for it
 * beside the 1200 px page) it waits docked at the window's edge, and no button, link or text
 * field of /home or of a post, at the top, the middle or the bottom of the page, is under it.
 * Brought out with a click it shows whole, and goes back to the edge when the reader clicks on.
 * Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { PC_DOCK_VISIBLE_PX } from '../../src/client/app/layout/widget-position.ts';
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
    await page.evaluate((share) => scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * share), at);
    await check();
  }
}

describe.each([1280, 1024, 860])('the AI promo at %i px', (width) => {
  it('lies over no control of /home or of a post, at the top, the middle or the bottom', { timeout: 120_000 }, async () => {
    const post = (await callApi(app, api.channelPosts, { tab: 'all', size: 50 })).list.find((p) => p.comment_count > 3)!;
    await withBrowser(app, { viewport: { width, height: 800 } }, async ({ page }) => {
      for (const path of ['/home', `/message/detail/${post.id}`]) {
        await page.goto(`${app.url}${path}`);
        await page.locator('main article').first().waitFor();
        const tab = page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' });
        await tab.waitFor();
        await everyScroll(page, async () => expect(await controlsUnderWidget(page)).toEqual([]));
      }
      // Brought out, whole, by a click on the part that shows clear of an overlay scrollbar (the
      // window's last 15 px take the pointer); a click elsewhere puts it back at the edge.
      await page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' }).click({ position: { x: PC_DOCK_VISIBLE_PX - 16 - 8, y: 22 } });
      await page.getByRole('button', { name: /^AI助手\s*学习路上/ }).waitFor();
      await page.getByRole('heading', { name: /^评论/ }).click();
      await page.getByTestId('ai-widget').getByRole('button', { name: 'AI助手' }).waitFor();
      expect(await controlsUnderWidget(page)).toEqual([]);
    });
  });
});
