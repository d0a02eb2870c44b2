/**
 * First screens painted from the page's HTML: the server renders the layout
 * and the first posts of /home, a post, a profile and its first posts, with the app's own
 * components (src/client/app/first-screen.server.tsx), so they show before the entry script has
 * even arrived; the client then hydrates them (app/first-screen-hydration.ts): it adopts the
 * server's elements, so nothing is built again, moves (no layout shift) or leaves the page, and
 * the page works as always, with no console error (React's warnings included). Where the server
 * rendered another layout than the viewport shows, the client renders its own.
 * Both layouts, in light and dark. The precached page (offline start) is tests/e2e/pwa.test.ts's.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type EndpointOutput } from '#shared/api.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_SCREEN_PAGE_MODULE } from '#shared/first-screen.ts';
import type { Post } from '#shared/schemas.ts';
import { CHINA_UTC_OFFSET_MINUTES } from '#shared/timestamp.ts';
import { fullTime } from '../../src/client/format/time.ts';
import { scriptsOf, stylesheetsOf, type BuildManifest } from '../../src/server/http/first-screen.ts';
import { allFeedPosts, callApi, PROJECT_ROOT, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, PHONE_USER_AGENT, type LaunchedBrowser } from './support/browser.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { watchRequests } from './support/requests.ts';

/** Lighthouse's phone and a desktop Chromium. */
const PHONE_UA = PHONE_USER_AGENT;
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** The header's user area: it settles when the session check answers, with or without this render. */
const HEADER_USER_AREA = '.mobile-bar__actions, .app-header__actions';

/** What must not move when the client's render takes the server's place. */
const STEADY = ['main article', '.feed-header', '.mobile-bar', '.feed-tabs', '.app-header', '.sidebar__item', '.compose-fab'];

/** Every visible box of those (/home's unless told), by selector and order. */
function boxes(page: Page, steady: readonly string[] = STEADY): Promise<string[]> {
  return page.evaluate((selectors) => {
    const out: string[] = [];
    for (const selector of selectors) {
      document.querySelectorAll(selector).forEach((element, index) => {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) return;
        out.push(`${selector}[${index}] ${rect.x},${rect.y} ${rect.width}x${rect.height}`);
      });
    }
    return out;
  }, steady);
}

/** /home opened with the entry script held (holdEntry): the console watched, and its first card as the server's HTML shows it. */
async function openHomeHeld(page: Page, url: string) {
  const problems = watchConsole(page);
  const entry = await holdEntry(page);
  await page.goto(`${url}/home`, { waitUntil: 'commit' });
  const first = page.locator('main article').first();
  await first.waitFor({ state: 'visible' });
  return { problems, entry, first };
}

/** The entry script (index-*.js) held back until release(): the page shows only what its HTML has. */
async function holdEntry(page: Page): Promise<{ release(): void; requested: () => boolean }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route: Route) => {
    requested = true;
    await released;
    await route.continue();
  });
  return { release, requested: () => requested };
}

/**
 * From the page's start: the module preloads the page adds, as batches of what each task added
 * (a MutationObserver's callback runs at the end of the task that made its changes).
 */
async function recordPreloadBatches(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = window as unknown as { preloadBatches: string[][] };
    seen.preloadBatches = [];
    new MutationObserver((records) => {
      const added = records
        .flatMap((record) => [...record.addedNodes])
        .filter((node): node is HTMLLinkElement => node instanceof HTMLLinkElement && node.rel === 'modulepreload' && !node.hasAttribute('crossorigin'))
        .map((link) => new URL(link.href).pathname);
      if (added.length > 0) seen.preloadBatches.push(added);
    }).observe(document, { childList: true, subtree: true });
  });
}

function preloadBatches(page: Page): Promise<string[][]> {
  return page.evaluate(() => (window as unknown as { preloadBatches: string[][] }).preloadBatches);
}

/** The client is up: it set the layout on <html>, hydrated or replaced the server's copy (of either layout) and `content` is there. */
async function clientStarted(page: Page, content = 'main article'): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        (selector) =>
          Boolean(document.documentElement.dataset.layout && !document.querySelector('.first-screen--mobile, .first-screen--pc') && document.querySelector(selector)),
        content,
      ),
    )
    .toBe(true);
}

/** Marks the elements `selector` finds now (a property of the object, not of the HTML) ... */
async function markElements(page: Page, selector: string): Promise<number> {
  return page.evaluate((selector) => {
    const found = document.querySelectorAll(selector);
    for (const element of found) (element as Element & { seenBeforeStart?: true }).seenBeforeStart = true;
    return found.length;
  }, selector);
}

/** ... and how many of those `selector` finds now are those same objects: all of them when the client hydrated the page. */
function markedElements(page: Page, selector: string): Promise<number> {
  return page.evaluate(
    (selector) => [...document.querySelectorAll(selector)].filter((element) => (element as Element & { seenBeforeStart?: true }).seenBeforeStart).length,
    selector,
  );
}

/**
 * From now on: how often `content` left the page, and every layout shift but those of `settling`
 * (what the client fetches after its start, with or without the server's render: the header's
 * user area once the session check answers, a post's likers).
 */
async function watchShifts(page: Page, content: string, settling: string): Promise<() => Promise<{ gone: number; shifts: string[] }>> {
  await page.evaluate(
    ({ content, settling }) => {
      const seen = window as unknown as { contentGone: number; shifts: string[] };
      seen.contentGone = 0;
      seen.shifts = [];
      new MutationObserver(() => {
        if (!document.querySelector(content)) seen.contentGone++;
      }).observe(document.getElementById('root')!, { childList: true, subtree: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const shift = entry as PerformanceEntry & { value: number; sources: { node?: Node }[] };
          if (shift.sources.every((source) => source.node instanceof Element && source.node.closest(settling))) continue;
          const nodes = shift.sources.map((source) => (source.node instanceof Element ? `${source.node.tagName.toLowerCase()}.${source.node.className}` : String(source.node?.nodeName)));
          seen.shifts.push(`${shift.value.toFixed(5)} ${nodes.join(' ')}`);
        }
      }).observe({ type: 'layout-shift' });
    },
    { content, settling },
  );
  return () => page.evaluate(() => {
    const seen = window as unknown as { contentGone: number; shifts: string[] };
    return { gone: seen.contentGone, shifts: seen.shifts };
  });
}

/** Console errors and warnings, and uncaught exceptions, from now on. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

describe('/home painted from its HTML', () => {
  let app: RunningApp;
  let firstPage: EndpointOutput<typeof api.channelPosts>;

  beforeAll(async () => {
    app = await startApp();
    firstPage = await callApi(app, api.channelPosts, { tab: 'all', size: 10 });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const layouts = [
    { name: 'a phone at 375 px, light', viewport: { width: 375, height: 812 }, userAgent: PHONE_UA, colorScheme: 'light', layout: 'mobile' },
    { name: 'a desktop at 1280 px, dark', viewport: { width: 1280, height: 900 }, userAgent: DESKTOP_UA, colorScheme: 'dark', layout: 'pc' },
  ] as const;

  for (const setting of layouts) {
    describe(setting.name, () => {
      let browser: LaunchedBrowser;
      beforeAll(async () => {
        browser = await launchBrowser({ viewport: setting.viewport, userAgent: setting.userAgent });
        await browser.page.emulateMedia({ colorScheme: setting.colorScheme });
      });
      afterAll(async () => {
        await browser?.close();
      });

      it('shows the first posts before the entry script has arrived, and the client’s render moves none of it, nor the scroll', async () => {
        const { page } = browser;
        const { problems, entry, first } = await openHomeHeld(page, app.url);
        // Asked for once the posts are painted, and held: the app has not started.
        await expect.poll(() => entry.requested()).toBe(true);
        expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBeUndefined();
        expect(await first.textContent()).toContain(firstPage.list[0]!.content.slice(0, 20));
        expect(await page.locator(`.first-screen--${setting.layout}`).isVisible()).toBe(true);
        // Styled as the client's: the stylesheet is in the page, the colours follow the scheme.
        const look = () =>
          page.evaluate(() => {
            const card = getComputedStyle(document.querySelector('main article')!);
            const body = getComputedStyle(document.body);
            return { card: card.backgroundColor, radius: card.borderRadius, text: body.color, font: body.fontSize, page: body.backgroundColor };
          });
        // A reader who scrolls before the app starts stays where they are.
        await page.mouse.wheel(0, 240);
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(240);
        const before = await boxes(page);
        const lookBefore = await look();
        expect(before.filter((box) => box.startsWith('main article')).length).toBeGreaterThan(2);

        // From here on: whether the posts ever leave the page, and every layout shift.
        const seen = await watchShifts(page, 'main article', HEADER_USER_AREA);
        const serverPosts = await markElements(page, 'main article, main article *');
        entry.release();
        await clientStarted(page);
        await page.waitForLoadState('networkidle');
        // Hydrated: the posts on screen are the elements the server's HTML made, not copies.
        expect(await markedElements(page, 'main article, main article *')).toBe(serverPosts);

        // Nothing moved or went; the sidebar's explore items (fetched by the client) come below.
        expect(await page.evaluate(() => window.scrollY)).toBe(240);
        expect(await boxes(page)).toEqual(expect.arrayContaining(before));
        expect(await look()).toEqual(lookBefore);
        expect(await seen()).toEqual({ gone: 0, shifts: [] });
        expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBe(setting.layout);
        expect(problems).toEqual([]);
      });
    });
  }

  it('/ shows /home’s first screen as well, and stays on screen while the client goes to /home', async () => {
    const browser = await launchBrowser({ viewport: { width: 375, height: 812 }, userAgent: PHONE_UA });
    try {
      const { page } = browser;
      const problems = watchConsole(page);
      const entry = await holdEntry(page);
      await page.goto(`${app.url}/`, { waitUntil: 'commit' });
      const first = page.locator('main article').first();
      await first.waitFor({ state: 'visible' });
      expect(await first.textContent()).toContain(firstPage.list[0]!.content.slice(0, 20));
      const seen = await watchShifts(page, 'main article', HEADER_USER_AREA);
      entry.release();
      await clientStarted(page);
      expect(new URL(page.url()).pathname).toBe('/home');
      expect((await seen()).gone).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows the platform readers’ times (China Standard Time) from the HTML, and the reader’s own once the app is up', async () => {
    // Five hours behind UTC, all year: thirteen behind Beijing.
    const browser = await launchBrowser({ viewport: { width: 375, height: 812 }, userAgent: PHONE_UA, timezoneId: 'Etc/GMT+5' });
    try {
      const { page } = browser;
      const problems = watchConsole(page);
      const entry = await holdEntry(page);
      await page.goto(`${app.url}/home`, { waitUntil: 'commit' });
      const time = page.locator('main article time').first();
      await time.waitFor({ state: 'attached' });
      const post = firstPage.list[0]!;
      expect(await time.getAttribute('title')).toBe(fullTime(post.create_time, CHINA_UTC_OFFSET_MINUTES));
      const serverTimes = await markElements(page, 'main article time');
      entry.release();
      await clientStarted(page);
      await expect.poll(() => time.getAttribute('title')).toBe(fullTime(post.create_time, -5 * 60));
      // The same elements, their text brought to the reader's clock.
      expect(await markedElements(page, 'main article time')).toBe(serverTimes);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('a desktop browser in a narrow window shows no wrong layout: the mobile page, once the script has run', async () => {
    const browser = await launchBrowser({ viewport: { width: 600, height: 800 }, userAgent: DESKTOP_UA });
    try {
      const { page } = browser;
      const entry = await holdEntry(page);
      await page.goto(`${app.url}/home`, { waitUntil: 'commit' });
      await page.locator('.first-screen--pc').waitFor({ state: 'attached' });
      expect(await page.locator('main article').first().isVisible()).toBe(false);
      entry.release();
      await clientStarted(page);
      expect(await page.locator('.feed-tabs').isVisible()).toBe(true);
      expect(await page.locator('.app-header').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  /** A phone's browser whose first visit is a logged-in reader's: the page is rendered for their cookie. */
  async function loggedInPhone(phone: string): Promise<LaunchedBrowser> {
    const browser = await launchBrowser({ viewport: { width: 375, height: 812 }, userAgent: PHONE_UA });
    const [name, value] = (await logInByApi(app, phone)).split('=') as [string, string];
    await browser.context.addCookies([{ name, value, url: app.url }]);
    return browser;
  }

  it('then works as always: a like counts, a tap opens the post, no console error', async () => {
    const browser = await loggedInPhone('15600097301');
    try {
      const { page } = browser;
      // A slow phone's CPU: the session check may answer before the hydration has reached the
      // header, which must still hydrate as the server rendered it (its place held).
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const problems = watchConsole(page);
      const entry = await holdEntry(page);
      await page.goto(`${app.url}/home`, { waitUntil: 'commit' });
      await page.locator('main article').first().waitFor({ state: 'visible' });
      expect(await page.locator('.first-screen--mobile').count()).toBe(1);
      const serverPosts = await markElements(page, 'main article');
      entry.release();
      await clientStarted(page);
      await expect.poll(() => page.getByRole('button', { name: /^账号菜单/ }).count()).toBe(1);
      expect(await markedElements(page, 'main article')).toBe(serverPosts);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

      const first = firstPage.list[0]!;
      const card = page.locator('main article').first();
      const like = card.locator('footer button[aria-pressed]');
      expect(await like.getAttribute('aria-label')).toBe(`点赞 ${first.like_count}`);
      await like.click();
      await expect.poll(() => like.getAttribute('aria-label')).toBe(`取消点赞 ${first.like_count + 1}`);
      expect(await like.getAttribute('aria-pressed')).toBe('true');

      await card.locator('.post-content').click();
      await page.waitForURL(`**/message/detail/${first.id}`);
      await page.locator('main article').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  /** Holds the entry, opens /home and waits until the page's first script keeps taps (it is inline in the page). */
  async function homeBeforeTheApp(page: Page): Promise<{ release(): void }> {
    const entry = await holdEntry(page);
    await page.goto(`${app.url}/home`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.earlyActs !== undefined);
    expect(await page.locator('.first-screen--mobile').count()).toBe(1);
    return entry;
  }

  it('answers a like tapped before the app started once it is up: it counts once', async () => {
    const browser = await loggedInPhone('15600097302');
    try {
      const { page } = browser;
      const problems = watchConsole(page);
      // A post the other tests leave alone (the one before likes the first).
      const liked = firstPage.list[2]!;
      const entry = await homeBeforeTheApp(page);
      const like = page.locator('main article').nth(2).locator('footer button[aria-pressed]');
      expect(await like.getAttribute('aria-label')).toBe(`点赞 ${liked.like_count}`);
      const requests = watchRequests(page);
      await like.click();
      entry.release();
      await clientStarted(page);
      await expect.poll(() => like.getAttribute('aria-label')).toBe(`取消点赞 ${liked.like_count + 1}`);
      // The card shows the like before the outbox sends it: the server's count is what to wait for.
      const likeCount = async () => (await callApi(app, api.channelPosts, { tab: 'all', size: 10 })).list.find((post) => post.id === liked.id)?.like_count;
      await expect.poll(likeCount).toBe(liked.like_count + 1);
      // Once: the tap is not answered again, nor by both the page and the app.
      await requests.settled();
      requests.stop();
      expect(requests.made.map((request) => new URL(request.url()).pathname).filter((path) => path.startsWith('/serv/v1/likes/'))).toEqual([api.likeAdd.path]);
      expect(await like.getAttribute('aria-pressed')).toBe('true');
      expect(await likeCount()).toBe(liked.like_count + 1);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  // A first visit of its own: on a reload, the service worker would answer with the entry it
  // keeps, which holdEntry cannot hold.
  it('answers a card’s text tapped before the app started once it is up: that post opens', async () => {
    const browser = await launchBrowser({ viewport: { width: 375, height: 812 }, userAgent: PHONE_UA });
    try {
      const { page } = browser;
      const problems = watchConsole(page);
      const opened = firstPage.list[1]!;
      const entry = await homeBeforeTheApp(page);
      await page.locator('main article').nth(1).locator('.post-content').click();
      entry.release();
      await page.waitForURL(`**/message/detail/${opened.id}`);
      await page.locator('main article').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

/**
 * Whether React owns every card of the page's list (a fiber of its own on each element it
 * hydrated or created): the list's Suspense boundary is hydrated, or was rendered anew.
 */
function listSettled(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const cards = [...document.querySelectorAll('main article')];
    return cards.length > 0 && cards.every((card) => Object.keys(card).some((key) => key.startsWith('__reactFiber$')));
  });
}

describe('/home’s first screen with a card whose text has Markdown, the server’s first render since it started', () => {
  const layouts = [
    { name: 'a phone at 375 px', viewport: { width: 375, height: 812 }, userAgent: PHONE_UA },
    { name: 'a desktop at 1280 px', viewport: { width: 1280, height: 900 }, userAgent: DESKTOP_UA },
  ] as const;

  for (const setting of layouts) {
    it(`on ${setting.name}: the client hydrates the server’s cards, and never puts its own in their place`, async () => {
      // A server of its own: its first render of such a card is the one that waits for remove-markdown.
      const app = await startApp();
      const browser = await launchBrowser({ viewport: setting.viewport, userAgent: setting.userAgent });
      try {
        const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
        const post = await callAs<Post>(app, await logInByApi(app, '13900000781'), api.postAdd.path, {
          content: '**加粗的开头**，公式 $E=mc^2$ 和 `code`',
          channel_id: [channelId],
          attach: [],
          client_id: `first-screen-markdown-${setting.viewport.width}-${Date.now()}`,
        });
        const { page } = browser;
        const { problems, entry, first } = await openHomeHeld(page, app.url);
        expect(await first.getAttribute('aria-labelledby')).toBe(`post-${post.id}-author`);
        expect(await first.locator('.post-content__text').textContent()).toContain('加粗的开头，公式 E=mc^2 和 code');
        const serverCards = await markElements(page, 'main article');
        entry.release();
        await clientStarted(page);
        await expect.poll(() => listSettled(page)).toBe(true);
        // Hydrated: the first card is the element the server's HTML made, and so is every other.
        expect(await first.evaluate((card) => (card as Element & { seenBeforeStart?: true }).seenBeforeStart === true)).toBe(true);
        expect(await markedElements(page, 'main article')).toBe(serverCards);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
        await app.stop();
      }
    });
  }
});

describe('a post and a user centre painted from their HTML', () => {
  let app: RunningApp;
  let post: EndpointOutput<typeof api.postDetail>;

  beforeAll(async () => {
    app = await startApp();
    // One with a picture: the largest paint is often the picture. Among every post: which are the
    // newest depends on the hour the demo was seeded (at 16:20 UTC, none of the newest 10 had one).
    // And comments, which come with the page too.
    post = (await allFeedPosts(app)).find((candidate) => candidate.attach.some((attach) => attach.type === 'image') && candidate.comment_count > 0)!;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const pages = [
    {
      name: 'a post',
      module: FIRST_SCREEN_PAGE_MODULE.post!,
      path: () => `/message/detail/${post.id}`,
      content: 'main article.post-card--full',
      text: () => post.content.slice(0, 20),
      // What the page paints before its script, beside `content`.
      alsoFirst: 'main article .post-card__head',
      // The first comments come with the page too, and stay as they are.
      steady: ['main article', '.image-grid', '.comments .section-title', '.comment-list .comment', '.likers', '.mobile-bar', '.app-header'],
      // The likers are fetched by the client, as without this render.
      settling: `${HEADER_USER_AREA}, .likers`,
      // Hydrated, not rendered again: the comments' heads and feet (their text may turn rich).
      keptToo: '.comment-list .comment__head, .comment-list .comment__foot',
    },
    {
      name: 'a user centre',
      module: FIRST_SCREEN_PAGE_MODULE.userCenter!,
      path: () => `/usercenter/${post.user.uid}`,
      // The first of the user's posts (by them: their nick), which must never give way to a skeleton.
      content: '[role="tabpanel"] article.post-card',
      text: () => post.user.nick,
      alsoFirst: '.profile',
      // The first posts come with the page too, and stay as they are.
      steady: ['.profile', '.profile__nick', '[role="tablist"]', '[role="tabpanel"] article', '.mobile-bar', '.app-header'],
      settling: HEADER_USER_AREA,
      keptToo: '.profile, .profile *',
    },
  ] as const;
  const layouts = [
    { name: 'a phone at 375 px, light', viewport: { width: 375, height: 812 }, userAgent: PHONE_UA, colorScheme: 'light', layout: 'mobile' },
    { name: 'a desktop at 1280 px, dark', viewport: { width: 1280, height: 900 }, userAgent: DESKTOP_UA, colorScheme: 'dark', layout: 'pc' },
  ] as const;

  for (const shown of pages) {
    for (const setting of layouts) {
      it(`${shown.name} on ${setting.name}: shows before the entry script has arrived, and the client’s render moves none of it`, async () => {
        // A reader in China, as the platform's are: the client writes the times in the reader's
        // zone, the server in China's, and in another zone a changed time may rewrap its comment.
        const browser = await launchBrowser({ viewport: setting.viewport, userAgent: setting.userAgent, timezoneId: 'Asia/Shanghai' });
        try {
          const { page } = browser;
          await page.emulateMedia({ colorScheme: setting.colorScheme });
          const problems = watchConsole(page);
          const entry = await holdEntry(page);
          const stylesheetsAsked: string[] = [];
          const scriptsAsked: string[] = [];
          page.on('request', (request) => {
            if (request.resourceType() === 'stylesheet') stylesheetsAsked.push(new URL(request.url()).pathname);
            if (request.resourceType() === 'script') scriptsAsked.push(new URL(request.url()).pathname);
          });
          const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'dist/client/.vite/manifest.json'), 'utf8')) as BuildManifest;
          await recordPreloadBatches(page);
          await page.goto(`${app.url}${shown.path()}`, { waitUntil: 'commit' });
          const content = page.locator(shown.content).first();
          await content.waitFor({ state: 'visible' });
          await expect.poll(() => entry.requested()).toBe(true);
          // The page's own code is asked for beside the entry, not once the entry has run and asked for it.
          const pageScripts = scriptsOf(manifest, shown.module);
          expect(pageScripts.length).toBeGreaterThan(1);
          await expect.poll(() => pageScripts.filter((path) => !scriptsAsked.includes(path))).toEqual([]);
          // One a task: a page's links added at once would make a long task.
          const batches = await preloadBatches(page);
          expect(batches.flat().sort()).toEqual([...pageScripts].sort());
          expect(batches.filter((batch) => batch.length > 1)).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBeUndefined();
          expect(await page.locator(`.first-screen--${setting.layout}`).isVisible()).toBe(true);
          expect(await content.textContent()).toContain(shown.text());
          expect(await page.locator(shown.alsoFirst).first().isVisible()).toBe(true);
          await page.waitForLoadState('load');
          const before = await boxes(page, shown.steady);
          expect(before.length).toBeGreaterThan(2);

          const seen = await watchShifts(page, shown.content, shown.settling);
          const contentAndInside = `${shown.content}, ${shown.content} *`;
          const serverContent = await markElements(page, contentAndInside);
          const serverKeptToo = await markElements(page, shown.keptToo);
          entry.release();
          await clientStarted(page, shown.content);
          await page.waitForLoadState('networkidle');
          // Hydrated: what the page showed first is still the server's elements, to the post's
          // rich text (its code loads after the hydration around it).
          expect(serverContent).toBeGreaterThan(0);
          expect(await markedElements(page, contentAndInside)).toBe(serverContent);
          expect(serverKeptToo).toBeGreaterThan(1);
          expect(await markedElements(page, shown.keptToo)).toBe(serverKeptToo);

          expect(await boxes(page, shown.steady)).toEqual(expect.arrayContaining(before));
          expect(await seen()).toEqual({ gone: 0, shifts: [] });
          expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBe(setting.layout);
          // The page's stylesheets came inline: its code, once loaded, fetched and added none of them again.
          // The page's code's own, and the entry's (a lazy chunk may list it too).
          const inline = [...stylesheetsOf(manifest, shown.module), ...(manifest['index.html']?.css ?? []).map((css) => `/${css}`)];
          expect(inline.length).toBeGreaterThan(1);
          expect(stylesheetsAsked.filter((path) => inline.includes(path))).toEqual([]);
          const applied = await page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]:not([disabled])')].map((link) => new URL((link as HTMLLinkElement).href).pathname));
          expect(applied.filter((path) => inline.includes(path))).toEqual([]);
          expect(problems).toEqual([]);
        } finally {
          await browser.close();
        }
      });
    }
  }
});
