/**
 * The header never hides what the keyboard focuses (WCAG 2.2 SC 2.4.11 Focus Not Obscured): on
 * /home, Shift+Tab onto a control lying wholly or partly under the header (the PC's fixed header,
 * the phone's sticky bar and tabs) scrolls it, focus ring included, just clear of the header. A
 * press of the pointer on the part that shows moves nothing. Against the built app and the real
 * server: `npm run build` first.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, waitForApp, type LaunchedBrowser } from './support/browser.ts';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

const LAYOUTS = [
  { layout: 'PC', viewport: { width: 1280, height: 900 }, header: '.app-header' },
  { layout: 'phone', viewport: { width: 375, height: 740 }, header: '.mobile-chrome' },
];

/** The control's box, the top of its focus ring (outline and offset, base.css) and the header's bottom, in viewport pixels. */
function measure(control: Locator, header: string) {
  return control.evaluate((element, selector) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
    const headerBottom = document.querySelector(selector)!.getBoundingClientRect().bottom;
    return { top: box.top, bottom: box.bottom, ringTop: box.top - Math.max(0, ring || 0), headerBottom };
  }, header);
}

const isFocused = (control: Locator) => control.evaluate((element) => element === document.activeElement);
/** Window scroll after two frames: time for anything a focus set off in the next frame to start. */
const scrollYAfterTwoFrames = (page: Page) =>
  page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY)))));

/**
 * The 4th post's first control (its author) and the control before it in the tab order (the end
 * of the 3rd post), the latter placed with its bottom `bottomBelowHeader` px below the header's
 * bottom (negative: wholly under the header) while the former shows.
 */
async function controlUnderHeader(page: Page, header: string, bottomBelowHeader: number): Promise<{ earlier: Locator; later: Locator }> {
  const later = page.locator('main article').nth(3).locator('a[href], button').first();
  await later.evaluate((element: HTMLElement) => element.focus());
  await page.keyboard.press('Shift+Tab');
  const earlier = page.locator(':focus');
  await earlier.evaluate((element) => element.setAttribute('data-test-earlier', ''));
  const marked = page.locator('[data-test-earlier]');
  await marked.evaluate((element: HTMLElement) => element.blur());
  await marked.evaluate((element, [selector, offset]) => {
    const headerBottom = document.querySelector(selector as string)!.getBoundingClientRect().bottom;
    window.scrollBy(0, element.getBoundingClientRect().bottom - (headerBottom + (offset as number)));
  }, [header, bottomBelowHeader] as const);
  const placed = await measure(marked, header);
  expect(placed.bottom - placed.headerBottom).toBeCloseTo(bottomBelowHeader, 0);
  expect(placed.top, 'still within the viewport: the browser itself scrolls nothing').toBeGreaterThanOrEqual(0);
  expect((await measure(later, header)).ringTop, 'the later control is clear of the header').toBeGreaterThan(placed.headerBottom);
  return { earlier: marked, later };
}

describe.each(LAYOUTS)('the header ($layout)', ({ viewport, header }) => {
  let browser: LaunchedBrowser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser({ viewport });
    page = browser.page;
    await page.goto(`${app.url}/home`);
    await waitForApp(page);
    await page.locator('main article').nth(5).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    { under: 'wholly', bottomBelowHeader: -2 },
    { under: 'partly', bottomBelowHeader: 10 },
  ])('scrolls a control $under under it, reached by Shift+Tab, just clear of it', async ({ bottomBelowHeader }) => {
    const { earlier, later } = await controlUnderHeader(page, header, bottomBelowHeader);
    await later.evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
    const before = await scrollYAfterTwoFrames(page);

    await page.keyboard.press('Shift+Tab');
    expect(await isFocused(earlier)).toBe(true);
    await expect
      .poll(async () => {
        const { ringTop, headerBottom } = await measure(earlier, header);
        return ringTop >= headerBottom;
      })
      .toBe(true);
    const cleared = await measure(earlier, header);
    // The smallest scroll: the ring starts at the header, not a screen below it.
    expect(cleared.ringTop - cleared.headerBottom).toBeLessThan(2);
    expect(await scrollYAfterTwoFrames(page)).toBeLessThan(before);
    await earlier.evaluate((element) => element.removeAttribute('data-test-earlier'));
  });

  it('moves nothing when a press of the pointer focuses a control through the part that shows', async () => {
    const { earlier } = await controlUnderHeader(page, header, 10);
    const before = await scrollYAfterTwoFrames(page);
    const box = (await earlier.boundingBox())!;
    const { headerBottom } = await measure(earlier, header);
    await page.mouse.move(box.x + box.width / 2, headerBottom + 5);
    await page.mouse.down();
    try {
      expect(await isFocused(earlier)).toBe(true);
      expect(await scrollYAfterTwoFrames(page)).toBe(before);
      expect(await scrollYAfterTwoFrames(page)).toBe(before);
    } finally {
      await page.mouse.move(1, viewport.height - 1);
      await page.mouse.up();
      await earlier.evaluate((element) => element.removeAttribute('data-test-earlier'));
    }
  });
});
