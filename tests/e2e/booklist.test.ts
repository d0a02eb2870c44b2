/**
 * The joint book list at 375 px (a touch phone) and 1280 px: the sidebar's 读书会书单 (the 发现
 * sheet on a phone) opens /booklist/2024, which shows the list and every book with its author,
 * reason and cover (sized, described, loaded); a column of the learning site opens in this
 * window and a page of the reading app in a new one; 分享 copies the list's link where there is
 * no share sheet; an unknown code says the list does not exist; a list visited once reads
 * offline. Needs `npm run build` first.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Booklist } from '#shared/schemas.ts';
import { callApi } from './support/app.ts';
import { sharedApp, useBrowser } from './support/fixtures.ts';

const app = sharedApp();
/** The default LEARNING_SITE_URL, the server's run-time setting. */
const LEARNING_SITE = 'https://time.geekbang.org';
const READING_APP = 'https://weread.qq.com';

const main = (page: Page) => page.getByRole('main');
const book = (page: Page, title: string) => main(page).getByRole('article', { name: title });

/** Every picture of the page's main part has arrived (the service worker's or the network's). */
const coversLoaded = (page: Page) =>
  page.waitForFunction(() => {
    const images = [...document.querySelectorAll('main img')] as HTMLImageElement[];
    return images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0);
  });

/** The list's title and each book's, in order, once they show. */
async function shownList(page: Page, list: Booklist): Promise<string[]> {
  await main(page).getByRole('heading', { level: 1, name: list.title }).waitFor();
  return main(page).getByRole('heading', { level: 3 }).allTextContents();
}

describe.each([
  { name: 'a phone, 375 px', viewport: { width: 375, height: 812 }, hasTouch: true, phone: true },
  { name: 'a PC, 1280 px', viewport: { width: 1280, height: 800 }, hasTouch: false, phone: false },
])('the joint book list on $name', ({ viewport, hasTouch, phone }) => {
  const browser = useBrowser(app, { viewport, hasTouch });
  let list: Booklist;
  let other: Booklist;

  beforeAll(async () => {
    list = await callApi(app, api.booklistDetail, { code: '2024' });
    other = await callApi(app, api.booklistDetail, { code: '2025' });
  });

  it('opens from 读书会书单 and shows every book with its author, reason and cover', async () => {
    const page = browser.page;
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    if (phone) {
      await page.getByRole('navigation', { name: '动态分类' }).getByRole('button', { name: '发现' }).click();
      await page.getByRole('dialog', { name: '发现' }).getByRole('link', { name: '读书会书单' }).click();
    } else {
      await page.getByRole('navigation', { name: '社区导航' }).getByRole('link', { name: '读书会书单' }).click();
    }
    await page.waitForURL(`${app.url}/booklist/2024`);
    expect(await shownList(page, list)).toEqual(list.books.map((b) => b.title));
    expect(await page.title()).toBe('极客时间 x 微信读书');
    expect(await main(page).getByText(list.intro).isVisible()).toBe(true);
    for (const b of list.books) {
      const item = book(page, b.title);
      expect(await item.getByText(b.author, { exact: true }).isVisible(), b.title).toBe(true);
      expect(await item.getByText(b.reason, { exact: true }).isVisible(), b.title).toBe(true);
    }

    // Every cover: its size given (its place kept before it loads), described, and shown.
    await coversLoaded(page);
    const covers = await main(page)
      .locator('img')
      .evaluateAll((images) =>
        (images as HTMLImageElement[]).map((img) => ({
          src: new URL(img.src).pathname,
          alt: img.alt,
          width: Number(img.getAttribute('width')),
          height: Number(img.getAttribute('height')),
          shownRatio: Math.round((img.getBoundingClientRect().width / img.getBoundingClientRect().height) * 100) / 100,
        })),
      );
    expect(covers).toEqual([
      { src: list.cover.url, alt: `${list.title}封面`, width: 1200, height: 400, shownRatio: 3 },
      ...list.books.map((b) => ({ src: b.cover.url, alt: `《${b.title}》封面`, width: 300, height: 400, shownRatio: 0.75 })),
    ]);
    // Nothing wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('opens a column of the learning site in this window, and the reading app in a new one', async () => {
    const { page, context } = browser;
    await context.route(`${LEARNING_SITE}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>学习站</title>' }));
    await context.route(`${READING_APP}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>微信读书</title>' }));
    try {
      await page.goto(`${app.url}/booklist/2024`);
      await shownList(page, list);

      const column = list.books.find((b) => b.link.type === 'column')!;
      const columnLink = book(page, column.title).getByRole('link', { name: `配套专栏 ${column.link.title}` });
      expect(await columnLink.getAttribute('target')).toBeNull();
      const box = (await columnLink.boundingBox())!;
      // A finger's target on a phone.
      if (phone) expect(box.height).toBeGreaterThanOrEqual(44);
      await columnLink.click();
      await page.waitForURL(`${LEARNING_SITE}/column/intro/${(column.link as { id: number }).id}`);
      await page.goBack();
      await shownList(page, list);

      const reading = list.books.find((b) => b.link.type === 'reading')!;
      const readingLink = book(page, reading.title).getByRole('link', { name: /在微信读书阅读/ });
      expect(await readingLink.getAttribute('rel')).toContain('noopener');
      const [popup] = await Promise.all([context.waitForEvent('page'), readingLink.click()]);
      await popup.waitForURL((url) => url.href === (reading.link as { url: string }).url);
      expect(new URL(popup.url()).origin).toBe(READING_APP);
      await popup.close();
      expect(page.url()).toBe(`${app.url}/booklist/2024`);
    } finally {
      await context.unrouteAll({ behavior: 'ignoreErrors' });
    }
  });

  it('shares the list: its link copied where the browser has no share sheet', async () => {
    const { page, context } = browser;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await page.goto(`${app.url}/booklist/2024`);
    await shownList(page, list);
    await main(page).getByRole('button', { name: '分享' }).click();
    await page.getByText('复制成功').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url}/booklist/2024`);
  });

  it('says a list that does not exist does not exist, with the way home and no 重试, and logs no error', async () => {
    const page = browser.page;
    // An answer that the list does not exist is expected, not a fault for the console.
    const errors: string[] = [];
    const onConsole = (message: ConsoleMessage) => void (message.type() === 'error' && errors.push(message.text()));
    page.on('console', onConsole);
    await page.goto(`${app.url}/booklist/BOOK2024`);
    await main(page).getByText('这个书单不存在').waitFor();
    page.off('console', onConsole);
    expect(errors).toEqual([]);
    expect(await page.getByText('加载失败').count()).toBe(0);
    expect(await page.getByRole('button', { name: '重试' }).count()).toBe(0);
    await main(page).getByRole('link', { name: '回到首页' }).click();
    await page.waitForURL(`${app.url}/home`);
  });

  it('reads a list offline after one visit, its covers too', async () => {
    const { page, context } = browser;
    await page.goto(`${app.url}/booklist/2025`);
    // The service worker takes the page over; this visit is the one it keeps.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await shownList(page, other);
    await coversLoaded(page);
    await context.setOffline(true);
    try {
      await page.reload();
      expect(await shownList(page, other)).toEqual(other.books.map((b) => b.title));
      await coversLoaded(page);
      expect(await page.getByText('加载失败').count()).toBe(0);
    } finally {
      await context.setOffline(false);
    }
  });
});
