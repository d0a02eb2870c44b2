/**
 * The feed against the built app and the real server (seeded demo data): posts from the
 * server, infinite scroll with keyset pages, the PC and mobile layouts, card navigation and
 * the kept-alive /home.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, type EndpointOutput } from '#shared/api.ts';
import { callApi } from './support/app.ts';
import { sharedApp, useBrowser } from './support/fixtures.ts';
import { settledScrollY } from './support/scroll.ts';

type PostPage = EndpointOutput<typeof api.channelPosts>;

const cards = (page: Page) => page.locator('main article');

describe('feed', () => {
  const app = sharedApp();
  let firstPage: PostPage;

  beforeAll(async () => {
    firstPage = await callApi(app, api.channelPosts, { tab: 'all', size: 10 });
    expect(firstPage.page.more).toBe(true);
  });

  describe('on a 1280 px wide window', () => {
    const { page } = useBrowser(app, { viewport: { width: 1280, height: 900 } });

    it('a first visit’s /home shows its posts without a feed call or a stylesheet request before them', async () => {
      // Told by the page itself: when the first card came into it, and what it had asked for by then.
      await page.addInitScript(() => {
        new MutationObserver((_mutations, observer) => {
          if (!document.querySelector('main article')) return;
          (window as unknown as { cardsAt: number }).cardsAt = performance.now();
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${app.url}/home`);
      await cards(page).first().waitFor();
      const before = await page.evaluate(() => {
        const cardsAt = (window as unknown as { cardsAt: number }).cardsAt;
        return performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime < cardsAt)
          .map((entry) => new URL(entry.name).pathname);
      });
      expect(await cards(page).first().textContent()).toContain(firstPage.list[0]!.content.slice(0, 20));
      expect(before.filter((path) => path === api.channelPosts.path || path.endsWith('.css'))).toEqual([]);
      // Styled all the same: the stylesheet came inside the page.
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('main article')!).borderRadius)).not.toBe('0px');
    });

    it('/home shows the posts from the server', async () => {
      await page.goto(`${app.url}/home`);
      await expect.poll(() => cards(page).count()).toBeGreaterThan(0);
      const first = firstPage.list[0]!;
      const firstCard = cards(page).first();
      await expect.poll(() => firstCard.textContent()).toContain(first.user.nick);
      expect(await firstCard.textContent()).toContain(first.content.slice(0, 20));
      expect(await page.title()).toBe('极客时间');
    });

    it('shows the sidebar with 全部 active', async () => {
      const nav = page.getByRole('navigation', { name: '社区导航' });
      expect(await nav.isVisible()).toBe(true);
      const all = nav.getByRole('link', { name: '全部' });
      expect(await all.getAttribute('aria-current')).toBe('page');
      const box = await nav.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(220);
      // Explore items from the server follow the fixed ones.
      await expect.poll(() => nav.getByRole('link').count()).toBeGreaterThan(3);
      // The mobile tabs are not there.
      expect(await page.getByRole('navigation', { name: '动态分类' }).count()).toBe(0);
    });

    it('loads the next page when scrolled to the bottom', async () => {
      const before = await cards(page).count();
      expect(before).toBeLessThanOrEqual(10);
      // At the bottom until the next page has come (the bottom moves down as cards render).
      await expect
        .poll(async () => {
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          return cards(page).count();
        })
        .toBeGreaterThan(before);
      // The second page continues after the first: no post twice.
      const ids = await page.locator('main article').evaluateAll((els) => els.map((el) => el.getAttribute('aria-labelledby')));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('shows the return-to-top button once scrolled, and it scrolls up', async () => {
      const button = page.getByRole('button', { name: '回到顶部' });
      await expect.poll(() => button.count()).toBe(1);
      await button.click();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });

    it('a click on a card opens the post detail, and Back returns to the same place', async () => {
      await page.evaluate(() => window.scrollTo(0, 1200));
      expect(await settledScrollY(page)).toBeGreaterThan(1000);
      const card = cards(page).nth(5);
      const labelId = await card.getAttribute('aria-labelledby');
      const postId = labelId?.match(/post-(\d+)-author/)?.[1];
      await card.locator('.post-content__text').click();
      await page.waitForURL(`**/message/detail/${postId}`);
      await expect.poll(() => page.getByRole('heading', { name: /评论/ }).count()).toBe(1);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.goBack();
      await page.waitForURL('**/home');
      // Kept alive: the data is there at once and the scroll position comes back.
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    });
  });

  describe('on a 375 px wide window', () => {
    const { page } = useBrowser(app, { viewport: { width: 375, height: 812 } });

    it('has no sidebar, but the feed tabs, 搜索 and the posts', async () => {
      await page.goto(`${app.url}/home`);
      await expect.poll(() => cards(page).count()).toBeGreaterThan(0);
      expect(await page.getByRole('navigation', { name: '社区导航' }).count()).toBe(0);
      const tabs = page.getByRole('navigation', { name: '动态分类' });
      expect(await tabs.isVisible()).toBe(true);
      expect(await tabs.getByRole('link').allTextContents()).toEqual(['全部', '关注', '精华']);
      // Beside the feeds, not one of them: the way to search.
      expect(await page.getByRole('link', { name: '搜索', exact: true }).isVisible()).toBe(true);
      // Edge to edge: a card spans the whole width.
      const box = await cards(page).first().boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(375);
    });

    it('the 关注 tab asks a logged-out visitor to log in; 精华 shows featured posts', async () => {
      await page.getByRole('navigation', { name: '动态分类' }).getByRole('link', { name: '关注' }).click();
      await page.waitForURL('**/follow');
      await expect.poll(() => page.getByText('登录后查看关注的动态').count()).toBe(1);
      await page.getByRole('navigation', { name: '动态分类' }).getByRole('link', { name: '精华' }).click();
      await page.waitForURL('**/good');
      await expect.poll(() => cards(page).count()).toBeGreaterThan(0);
      expect(await cards(page).first().getByText('精华', { exact: true }).count()).toBe(1);
    });

    it('Back with the gallery open closes it, and /home is where it was', async () => {
      await page.goto(`${app.url}/home`);
      await expect.poll(() => cards(page).count()).toBeGreaterThan(0);
      const withImages = cards(page).filter({ has: page.locator('.image-grid__cell') });
      // A screen at a time: past 40 posts the list is windowed, and a jump to the bottom would
      // leave the cards passed over out of the DOM.
      await expect
        .poll(async () => {
          if ((await withImages.count()) === 0) await page.evaluate(() => window.scrollBy(0, window.innerHeight));
          return withImages.count();
        })
        .toBeGreaterThan(0);
      const card = withImages.first();
      await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      // Where the list leaves it: the windowed list corrects the scroll as it measures its cards.
      const scrolled = await settledScrollY(page);
      expect(scrolled).toBeGreaterThan(0);
      // A DOM click: Playwright's own would scroll the link clear of the sticky bars first.
      await card.locator('.post-card__time').evaluate((el: HTMLElement) => el.click());
      await page.waitForURL('**/message/detail/**');
      // The detail shown (until it loads, the feed stays on screen: routes.test.tsx covers a
      // picture opened there).
      await page.getByRole('heading', { name: /评论/ }).waitFor();
      await page.locator('main .image-grid__cell').first().click();
      await page.getByRole('dialog', { name: '图片查看' }).waitFor();
      await page.goBack();
      await page.waitForURL('**/home');
      await expect.poll(() => page.getByRole('dialog', { name: '图片查看' }).count()).toBe(0);
      expect(await page.evaluate(() => document.body.style.position)).toBe('');
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
    });

    it('suppresses a second tap within 300 ms', async () => {
      const cancelled = await page.evaluate(() => {
        const target = document.querySelector('main') ?? document.body;
        const touchEnd = () => !target.dispatchEvent(new Event('touchend', { bubbles: true, cancelable: true }));
        return [touchEnd(), touchEnd()];
      });
      expect(cancelled).toEqual([false, true]);
    });
  });
});
