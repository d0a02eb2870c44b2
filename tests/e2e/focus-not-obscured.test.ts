/**
 * Nothing the keyboard focuses stays hidden under a bar (WCAG 2.2 SC 2.4.11 Focus Not Obscured):
 *
 * - the 写评论 bar at the bottom of a post on a phone (375 x 740): Tab onto a comment's 点赞
 *   lying wholly or partly under the bar scrolls it, focus ring included, just clear of the bar;
 *   at once where the reader asks for less motion;
 * - the header on /home (the PC's fixed header, the phone's sticky bar and tabs): Shift+Tab onto
 *   a control lying wholly or partly under it scrolls it just clear of it.
 *
 * A press of the pointer that focuses the same control through its visible part moves nothing.
 * Against the built app and the real server: `npm run build` first.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '#shared/schemas.ts';
import { feedPosts } from './support/app.ts';
import { sharedApp, useBrowser } from './support/fixtures.ts';
import { settledScrollY } from './support/scroll.ts';

const PHONE = { width: 375, height: 740 };
/** A 点赞 placed this far above the bar's top shows its upper part (of 44 px) above the bar. */
const PARTLY_SHOWING = -16;

const app = sharedApp();
let mostCommented: Post;

beforeAll(async () => {
  const posts = await feedPosts(app, 200);
  mostCommented = posts.reduce((most, post) => (post.comment_count > most.comment_count ? post : most));
});

interface Placement {
  /** The comment's 点赞. */
  like: Locator;
  /** The comment's author link, the control before 点赞 in the tab order. */
  author: Locator;
}

/**
 * Opens the most commented post, scrolls past 写评论… under the title so that the bar shows, then
 * puts a comment's 点赞 with its top `belowBarTop` px below the bar's top (negative: that much of
 * it still shows above the bar). The comment is one without links in its text, so that Tab goes
 * from its author straight to its 点赞, and far enough down for the bar to stay.
 */
async function likeUnderBar(page: Page, belowBarTop: number): Promise<Placement> {
  await page.goto(`${app.url}/message/detail/${mostCommented.id}`);
  await page.locator('.comment-list .comment').first().waitFor();
  const index = await page.evaluate(() => {
    const opener = document.querySelector('.comments > .comment-opener')!.getBoundingClientRect();
    return [...document.querySelectorAll('.comment-list .comment')].findIndex((comment) => {
      const like = comment.querySelector('button[aria-pressed]');
      return like !== null && comment.querySelector('.comment__text a') === null && like.getBoundingClientRect().top - opener.bottom > innerHeight;
    });
  });
  expect(index, 'a comment a screen below 写评论… without links in its text').toBeGreaterThanOrEqual(0);
  const comment = page.locator('.comment-list .comment').nth(index);
  const like = comment.getByRole('button', { name: /^点赞 \d+$/ });
  const author = comment.locator('.comment__author');

  await page.evaluate(() => window.scrollBy(0, document.querySelector('.comments > .comment-opener')!.getBoundingClientRect().bottom + 40));
  await page.locator('.comment-bar').waitFor({ state: 'visible' });
  await like.evaluate((element, offset) => {
    const barTop = document.querySelector('.comment-bar')!.getBoundingClientRect().top;
    window.scrollBy(0, element.getBoundingClientRect().top - (barTop + offset));
  }, belowBarTop);
  const placed = await measureUnderBar(like);
  expect(placed.top - placed.barTop).toBeCloseTo(belowBarTop, 0);
  expect((await measureUnderBar(author)).ringBottom, 'the author link is clear of the bar').toBeLessThan(placed.barTop);
  return { like, author };
}

/** The control's box, the bottom of its focus ring (outline and offset, base.css) and the bar's top, in viewport pixels. */
function measureUnderBar(control: Locator) {
  return control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
    const barTop = document.querySelector('.comment-bar')!.getBoundingClientRect().top;
    return { top: box.top, bottom: box.bottom, ringBottom: box.bottom + Math.max(0, ring || 0), barTop };
  });
}

const isFocused = (control: Locator) => control.evaluate((element) => element === document.activeElement);
/** Window scroll after two frames: time for anything a focus set off in the next frame to start. */
const scrollYAfterTwoFrames = (page: Page) =>
  page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY)))));

describe('the 写评论 bar on a phone', () => {
  const { page } = useBrowser(app, { viewport: PHONE });

  it.each([
    { under: 'wholly', belowBarTop: 8 },
    { under: 'partly', belowBarTop: PARTLY_SHOWING },
  ])('scrolls a 点赞 $under under it, reached by Tab, just clear of it', async ({ belowBarTop }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const { like, author } = await likeUnderBar(page, belowBarTop);
    await author.evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
    const before = await scrollYAfterTwoFrames(page);

    await page.keyboard.press('Tab');
    expect(await isFocused(like)).toBe(true);
    await expect
      .poll(async () => {
        const { ringBottom, barTop } = await measureUnderBar(like);
        return ringBottom <= barTop;
      })
      .toBe(true);
    const cleared = await measureUnderBar(like);
    expect(cleared.bottom).toBeLessThan(cleared.barTop);
    // The smallest scroll: the ring ends at the bar, not a screen above it.
    expect(cleared.barTop - cleared.ringBottom).toBeLessThan(2);
    expect(await scrollYAfterTwoFrames(page)).toBeGreaterThan(before);
  });

  it('scrolls at once where the reader asks for less motion', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      const { like, author } = await likeUnderBar(page, 8);
      await author.evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
      await scrollYAfterTwoFrames(page);
      await page.keyboard.press('Tab');
      await scrollYAfterTwoFrames(page);
      const cleared = await measureUnderBar(like);
      expect(cleared.ringBottom).toBeLessThanOrEqual(cleared.barTop);
    } finally {
      await page.emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('moves nothing when a press of the pointer focuses the 点赞 through the part that shows', async () => {
    const { like } = await likeUnderBar(page, PARTLY_SHOWING);
    const before = await scrollYAfterTwoFrames(page);
    const box = (await like.boundingBox())!;
    // Below the top 8 px, which the comment's text above overlaps (the button's negative margin, comments.css).
    await page.mouse.move(box.x + box.width / 2, box.y + 12);
    await page.mouse.down();
    try {
      expect(await isFocused(like)).toBe(true);
      expect(await scrollYAfterTwoFrames(page)).toBe(before);
      expect(await scrollYAfterTwoFrames(page)).toBe(before);
    } finally {
      // Let go away from the 点赞: no click, no like.
      await page.mouse.move(1, 1);
      await page.mouse.up();
    }
  });
});

const LAYOUTS = [
  { layout: 'PC', viewport: { width: 1280, height: 900 }, header: '.app-header' },
  { layout: 'phone', viewport: { width: 375, height: 740 }, header: '.mobile-chrome' },
];

/** The control's box, the top of its focus ring (outline and offset, base.css) and the header's bottom, in viewport pixels. */
function measureUnderHeader(control: Locator, header: string) {
  return control.evaluate((element, selector) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
    const headerBottom = document.querySelector(selector)!.getBoundingClientRect().bottom;
    return { top: box.top, bottom: box.bottom, ringTop: box.top - Math.max(0, ring || 0), headerBottom };
  }, header);
}

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
  // The Shift+Tab may have set off a smooth scroll clear of the header: placed after it, not during it.
  await settledScrollY(page);
  // Placed again until it stays: content above it may still change height (a card's text once its
  // code arrives) between the scroll and the measure. Within a pixel: the scroll lands on whole
  // pixels, the cards on fractions.
  await expect
    .poll(async () => {
      await marked.evaluate((element, [selector, offset]) => {
        const headerBottom = document.querySelector(selector as string)!.getBoundingClientRect().bottom;
        window.scrollBy(0, element.getBoundingClientRect().bottom - (headerBottom + (offset as number)));
      }, [header, bottomBelowHeader] as const);
      const placed = await measureUnderHeader(marked, header);
      return Math.abs(placed.bottom - placed.headerBottom - bottomBelowHeader);
    })
    .toBeLessThanOrEqual(1);
  const placed = await measureUnderHeader(marked, header);
  expect(placed.top, 'still within the viewport: the browser itself scrolls nothing').toBeGreaterThanOrEqual(0);
  expect((await measureUnderHeader(later, header)).ringTop, 'the later control is clear of the header').toBeGreaterThan(placed.headerBottom);
  return { earlier: marked, later };
}

describe.each(LAYOUTS)('the header ($layout)', ({ viewport, header }) => {
  const { page } = useBrowser(app, { viewport, at: '/home' });
  beforeAll(async () => {
    await page.locator('main article').nth(5).waitFor();
    // The cards' later code (a text's Markdown remover, a poll) loaded: nothing above a control moves after it is placed.
    await page.waitForLoadState('networkidle');
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
        const { ringTop, headerBottom } = await measureUnderHeader(earlier, header);
        return ringTop >= headerBottom;
      })
      .toBe(true);
    const cleared = await measureUnderHeader(earlier, header);
    // The smallest scroll: the ring starts at the header, not a screen below it.
    expect(cleared.ringTop - cleared.headerBottom).toBeLessThan(2);
    expect(await scrollYAfterTwoFrames(page)).toBeLessThan(before);
    await earlier.evaluate((element) => element.removeAttribute('data-test-earlier'));
  });

  it('moves nothing when a press of the pointer focuses a control through the part that shows', async () => {
    const { earlier } = await controlUnderHeader(page, header, 10);
    const before = await scrollYAfterTwoFrames(page);
    const box = (await earlier.boundingBox())!;
    const { headerBottom } = await measureUnderHeader(earlier, header);
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
