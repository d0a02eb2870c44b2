/**
 * The 写评论 bar at the bottom of a post on a phone (375 x 740) never hides what the keyboard
 * focuses (WCAG 2.2 SC 2.4.11 Focus Not Obscured): Tab onto a comment's 点赞 lying wholly or
 * partly under the bar scrolls it, focus ring included, just clear of the bar; at once where the
 * reader asks for less motion. A press of the pointer that focuses the same 点赞 through its
 * visible part moves nothing. Against the built app and the real server: `npm run build` first.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '#shared/schemas.ts';
import { feedPosts, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';

const PHONE = { width: 375, height: 740 };
/** A 点赞 placed this far above the bar's top shows its upper part (of 44 px) above the bar. */
const PARTLY_SHOWING = -16;

let app: RunningApp;
let browser: LaunchedBrowser;
let page: Page;
let mostCommented: Post;

beforeAll(async () => {
  app = await startApp();
  const posts = await feedPosts(app, 200);
  mostCommented = posts.reduce((most, post) => (post.comment_count > most.comment_count ? post : most));
  browser = await launchBrowser({ viewport: PHONE });
  page = browser.page;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
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
async function likeUnderBar(belowBarTop: number): Promise<Placement> {
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
  const placed = await measure(like);
  expect(placed.top - placed.barTop).toBeCloseTo(belowBarTop, 0);
  expect((await measure(author)).ringBottom, 'the author link is clear of the bar').toBeLessThan(placed.barTop);
  return { like, author };
}

/** The control's box, the bottom of its focus ring (outline and offset, base.css) and the bar's top, in viewport pixels. */
function measure(control: Locator) {
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
const scrollYAfterTwoFrames = () =>
  page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY)))));

describe('the 写评论 bar on a phone', () => {
  it.each([
    { under: 'wholly', belowBarTop: 8 },
    { under: 'partly', belowBarTop: PARTLY_SHOWING },
  ])('scrolls a 点赞 $under under it, reached by Tab, just clear of it', async ({ belowBarTop }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const { like, author } = await likeUnderBar(belowBarTop);
    await author.evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
    const before = await scrollYAfterTwoFrames();

    await page.keyboard.press('Tab');
    expect(await isFocused(like)).toBe(true);
    await expect
      .poll(async () => {
        const { ringBottom, barTop } = await measure(like);
        return ringBottom <= barTop;
      })
      .toBe(true);
    const cleared = await measure(like);
    expect(cleared.bottom).toBeLessThan(cleared.barTop);
    // The smallest scroll: the ring ends at the bar, not a screen above it.
    expect(cleared.barTop - cleared.ringBottom).toBeLessThan(2);
    expect(await scrollYAfterTwoFrames()).toBeGreaterThan(before);
  });

  it('scrolls at once where the reader asks for less motion', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      const { like, author } = await likeUnderBar(8);
      await author.evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
      await scrollYAfterTwoFrames();
      await page.keyboard.press('Tab');
      await scrollYAfterTwoFrames();
      const cleared = await measure(like);
      expect(cleared.ringBottom).toBeLessThanOrEqual(cleared.barTop);
    } finally {
      await page.emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('moves nothing when a press of the pointer focuses the 点赞 through the part that shows', async () => {
    const { like } = await likeUnderBar(PARTLY_SHOWING);
    const before = await scrollYAfterTwoFrames();
    const box = (await like.boundingBox())!;
    // Below the top 8 px, which the comment's text above overlaps (the button's negative margin, comments.css).
    await page.mouse.move(box.x + box.width / 2, box.y + 12);
    await page.mouse.down();
    try {
      expect(await isFocused(like)).toBe(true);
      expect(await scrollYAfterTwoFrames()).toBe(before);
      expect(await scrollYAfterTwoFrames()).toBe(before);
    } finally {
      // Let go away from the 点赞: no click, no like.
      await page.mouse.move(1, 1);
      await page.mouse.up();
    }
  });
});
