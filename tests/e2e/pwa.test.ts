/**
 * The PWA against the built app and the real server: manifest and icons, the service worker
 * (registration, control, installability), the app shell offline (reload and deep links), the
 * POST-read cache keyed by body hash, the network-status messages behind 网络异常, and /home's
 * first screen kept by the worker for the next start.
 *
 * Needs `npm run build` first (startApp says so otherwise) and Chromium at /usr/bin/chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { api } from '#shared/api.ts';
import { FIRST_READ_ATTRIBUTE, KEPT_AT_ATTRIBUTE } from '#shared/first-screen.ts';
import type { Post } from '#shared/schemas.ts';
import {
  API_CACHE_NAME,
  BODY_HASH_PARAM,
  CACHED_API_READS,
  IMAGE_CACHE_NAME,
  KEPT_FIRST_SCREEN_CACHE_NAME,
  MSG_CLEAR_API_CACHE,
  SW_CACHE_HEADER,
} from '../../sw/constants.ts';
import { freePort } from '../support/ports.ts';
import { callApi, startApp, type RunningApp } from './support/app.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { installabilityErrors, launchBrowser, type LaunchedBrowser } from './support/browser.ts';

const PROVIDER_TITLE = '极客时间';

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  expect(Array.from(bytes.subarray(0, 8))).toEqual(signature);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('the service worker caches exactly the public API reads of the contract', () => {
  it('lists the feed and detail reads, and never a write or a call that needs login', () => {
    const cached = new Set(CACHED_API_READS);
    for (const read of [api.channelPosts, api.postDetail, api.commentList, api.topicPosts, api.exploreList]) {
      expect(cached.has(read.path), read.path).toBe(true);
    }
    for (const endpoint of Object.values(api)) {
      if (endpoint.kind === 'write' || endpoint.auth === 'required') expect(cached.has(endpoint.path), endpoint.path).toBe(false);
    }
  });
});

describe('PWA', () => {
  let app: RunningApp;
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A POST from the page (so it goes through the service worker), as the http client sends it. */
  function postFromPage(path: string, body: string) {
    return page.evaluate(
      async ({ path, body, header }) => {
        try {
          const response = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body,
            credentials: 'include',
          });
          return { ok: true as const, status: response.status, cache: response.headers.get(header), text: await response.text() };
        } catch (error) {
          return { ok: false as const, error: String(error) };
        }
      },
      { path, body, header: SW_CACHE_HEADER },
    );
  }

  async function statusMessages(): Promise<boolean[]> {
    return page.evaluate(() => (window as unknown as { __statuses: boolean[] }).__statuses.slice());
  }

  /** Collects the worker's network-status messages in the page (survives until the next load). */
  async function listenForStatus(): Promise<void> {
    await page.evaluate(() => {
      const w = window as unknown as { __statuses: boolean[] };
      w.__statuses = [];
      navigator.serviceWorker.addEventListener('message', (event: MessageEvent<unknown>) => {
        const data = event.data as { type?: string; online?: boolean };
        if (data?.type === 'network-status' && typeof data.online === 'boolean') w.__statuses.push(data.online);
      });
      navigator.serviceWorker.startMessages();
    });
  }

  it('serves the manifest with real icons and links it from the page', async () => {
    const response = await fetch(`${app.url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest.name).toContain(PROVIDER_TITLE);
    expect(manifest.start_url).toBe('/home');
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, app.url));
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get('content-type')).toContain('image/png');
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(new Uint8Array(await image.arrayBuffer())), icon.src).toEqual({ width, height });
    }
    for (const path of ['/apple-touch-icon.png', '/favicon.svg', '/robots.txt']) {
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(200);
    }

    await page.goto(`${app.url}/home`);
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.locator('meta[name="theme-color"]').count()).toBe(1);
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('viewport-fit=cover');
  });

  it('registers the service worker, which controls the page after a reload', async () => {
    await page.goto(`${app.url}/home`);
    const activeScript = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.scriptURL;
    });
    expect(activeScript).toBe(`${app.url}/sw.js`);
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${app.url}/sw.js`);
    // Every precached asset is in the precache.
    const precached = await page.evaluate(async () => {
      const names = await caches.keys();
      const precache = names.find((name) => name.includes('precache'));
      if (!precache) return [];
      const cache = await caches.open(precache);
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    });
    expect(precached).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icons/icon-192.png']));
    expect(precached.some((path) => /^\/assets\/.+\.js$/.test(path))).toBe(true);
  });

  it('is installable', async () => {
    await page.goto(`${app.url}/home`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    // Chromium checks the manifest and its icons asynchronously after the load.
    await expect.poll(() => installabilityErrors(page)).toEqual([]);
  });

  it('answers POST reads from the body-keyed cache offline and reports the network status', async () => {
    await page.goto(`${app.url}/home`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await listenForStatus();
    const path = api.channelPosts.path;

    const online = await postFromPage(path, JSON.stringify({ tab: 'all', size: 5 }));
    expect(online.ok && online.status).toBe(200);
    if (!online.ok) return;
    expect(online.cache).toBeNull();
    expect(JSON.parse(online.text)).toMatchObject({ code: 0 });
    // Written in the background after the answer: wait for the entry under its synthetic key.
    await expect
      .poll(() =>
        page.evaluate(
          async ({ cacheName, param }) => {
            const cache = await caches.open(cacheName);
            return (await cache.keys()).map((request) => new URL(request.url)).filter((url) => url.searchParams.has(param))
              .length;
          },
          { cacheName: API_CACHE_NAME, param: BODY_HASH_PARAM },
        ),
      )
      .toBeGreaterThan(0);

    await browser.context.setOffline(true);
    try {
      // Same body with its keys in another order: the same cache entry.
      const offline = await postFromPage(path, JSON.stringify({ size: 5, tab: 'all' }));
      expect(offline.ok && offline.status).toBe(200);
      if (!offline.ok) return;
      expect(offline.cache).toBe('hit');
      expect(offline.text).toBe(online.text);
      await expect.poll(statusMessages).toContain(false);

      // A read never made online has nothing to fall back on: a network error, as without a worker.
      const missing = await postFromPage(path, JSON.stringify({ tab: 'good', size: 3 }));
      expect(missing.ok).toBe(false);
    } finally {
      await browser.context.setOffline(false);
    }

    // Back online: the first answer from the network tells the pages the network works again. The
    // browser's offline switch can reach the worker a moment after it returns: until then the
    // worker's fetch fails and the cache answers, as it should.
    await expect
      .poll(async () => {
        const back = await postFromPage(path, JSON.stringify({ tab: 'all', size: 5 }));
        return back.ok && back.cache;
      })
      .toBeNull();
    await expect.poll(async () => (await statusMessages()).at(-1)).toBe(true);
  });

  it('does not cache business errors', async () => {
    await page.goto(`${app.url}/home`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const failed = await postFromPage(api.postDetail.path, JSON.stringify({ post_id: 987654321 }));
    expect(failed.ok).toBe(true);
    if (!failed.ok) return;
    expect(JSON.parse(failed.text)).not.toMatchObject({ code: 0 });
    await browser.context.setOffline(true);
    try {
      const offline = await postFromPage(api.postDetail.path, JSON.stringify({ post_id: 987654321 }));
      expect(offline.ok).toBe(false);
    } finally {
      await browser.context.setOffline(false);
    }
  });

  it('keeps images cache first, so a seen image shows offline', async () => {
    await page.goto(`${app.url}/home`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    const posts = await postFromPage(api.channelPosts.path, JSON.stringify({ tab: 'all', size: 20 }));
    expect(posts.ok).toBe(true);
    const src = posts.ok ? /"(\/img\/[^"]+)"/.exec(posts.text)?.[1] : undefined;
    expect(src, 'the demo feed has images under /img/').toBeTruthy();
    if (!src) return;

    const loadImage = (url: string) =>
      page.evaluate(
        (url) =>
          new Promise<{ width: number; ok: boolean }>((resolve) => {
            const img = new Image();
            img.onload = () => resolve({ width: img.naturalWidth, ok: true });
            img.onerror = () => resolve({ width: 0, ok: false });
            img.src = `${url}`;
          }),
        url,
      );
    const online = await loadImage(src);
    expect(online.ok).toBe(true);
    await expect
      .poll(() =>
        page.evaluate(
          async ({ cacheName, src }) => Boolean(await (await caches.open(cacheName)).match(src)),
          { cacheName: IMAGE_CACHE_NAME, src },
        ),
      )
      .toBe(true);

    await browser.context.setOffline(true);
    try {
      // A fetch (not the page's memory cache) of the same image, answered by the worker.
      const offline = await page.evaluate(async (url) => {
        const response = await fetch(url, { cache: 'no-store' });
        return { status: response.status, type: response.headers.get('content-type') };
      }, src);
      expect(offline.status).toBe(200);
      expect(offline.type).toMatch(/^image\//);
    } finally {
      await browser.context.setOffline(false);
    }
  });

  it('renders the app shell offline: a reload of /home and a deep link', async () => {
    await page.goto(`${app.url}/home`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    await browser.context.setOffline(true);
    try {
      const failedAssets: string[] = [];
      const assetResponses: Response[] = [];
      page.on('requestfailed', (request) => {
        // A chunk still loading when the next page is opened is cancelled, not failed offline.
        if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
        if (new URL(request.url()).pathname.startsWith('/assets/')) failedAssets.push(request.url());
      });
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.startsWith('/assets/')) assetResponses.push(response);
      });

      for (const path of ['/home', '/topic/list', '/message/detail/1']) {
        const response = path === '/home' ? await page.reload() : await page.goto(`${app.url}${path}`);
        expect(response?.status(), path).toBe(200);
        expect(response?.fromServiceWorker(), path).toBe(true);
        const html = (await response?.text()) ?? '';
        expect(html).toContain('<div id="root">');
        expect(html).toContain(`<title>${PROVIDER_TITLE}</title>`);
        expect(await page.locator('#root').count(), path).toBe(1);
        expect(new URL(page.url()).pathname).toBe(path);
        expect(await page.title(), path).not.toBe('');
        // The app itself ran from the precache: it rendered, and says the network is down.
        await page.waitForFunction(() => (document.getElementById('root')?.childElementCount ?? 0) > 0);
        await page.getByText('网络异常').first().waitFor({ state: 'visible' });
      }
      expect(failedAssets).toEqual([]);
      expect(assetResponses.length).toBeGreaterThan(0);
      expect(assetResponses.every((response) => response.fromServiceWorker() && response.status() === 200)).toBe(true);
    } finally {
      page.removeAllListeners('requestfailed');
      page.removeAllListeners('response');
      await browser.context.setOffline(false);
    }
  });

  // The persisted cache can take a while to open (a cold phone, a large cache): /home's posts do
  // not wait for it. Here it never opens at all.
  it('shows the posts the last visit saw at an offline start of /home, before the persisted cache is read', async () => {
    const starter = await launchBrowser();
    try {
      await starter.page.goto(`${app.url}/home`);
      // The app's own card: the page's server-rendered copy (here the PC layout's, hidden at this
      // width) is in the DOM until the app has started.
      await starter.page.locator('html[data-layout] main article').first().waitFor();
      // The card as read, but for its readable time (34分钟前 may turn 35 between the two reads).
      const firstCard = () =>
        starter.page.locator('main article').first().evaluate((card) => {
          const copy = card.cloneNode(true) as HTMLElement;
          for (const time of copy.querySelectorAll('time')) time.remove();
          return { post: card.getAttribute('aria-labelledby'), text: copy.textContent };
        });
      const seen = await firstCard();
      await starter.page.evaluate(() => navigator.serviceWorker.ready);
      await starter.context.addInitScript(() => {
        const open = IDBFactory.prototype.open;
        IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
          if (name.includes('query-cache')) return {} as IDBOpenDBRequest;
          return open.call(this, name, version);
        };
      });
      await starter.context.setOffline(true);
      await starter.page.reload();
      await starter.page.locator('main article').first().waitFor();
      expect(await firstCard()).toEqual(seen);
    } finally {
      await starter.close();
    }
  });

  // On the underground: the installed app opens on what the last visit saw, painted by the page
  // itself (the server's render, kept by the worker), not after the whole app has started.
  it('starts /home offline from the page the worker kept: the first posts are in its HTML, before any script has run', async () => {
    const starter = await launchBrowser();
    try {
      const newest = (await callApi(app, api.channelPosts, { tab: 'all', size: 10 })).list[0]!;
      const keptPage = () =>
        starter.page.evaluate(async (name) => {
          const kept = await (await caches.open(name)).match('/home');
          return kept ? kept.text() : undefined;
        }, KEPT_FIRST_SCREEN_CACHE_NAME);
      await starter.page.goto(`${app.url}/home`);
      await starter.page.evaluate(() => navigator.serviceWorker.ready);
      // The worker keeps a copy as it takes over.
      await expect.poll(keptPage).toContain(`aria-labelledby="post-${newest.id}-author"`);

      await starter.context.setOffline(true);
      // Whether the posts were there when the HTML was parsed: the app starts only after the first paint.
      await starter.context.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { postsInHtml: boolean }).postsInHtml = document.querySelector('.first-screen article.post-card') !== null;
        });
      });
      const response = await starter.page.reload();
      expect(response?.fromServiceWorker()).toBe(true);
      // Whole, and with the page's own policy: not said to be compressed, as the network's copy was.
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      expect(response?.headers()['content-encoding']).toBeUndefined();
      expect(await response?.text()).toContain(`aria-labelledby="post-${newest.id}-author"`);
      expect(await response?.text()).toMatch(/<\/html>\s*$/);
      // Saying when it was kept: the app takes what it carries as that old, and fetches it again.
      expect(await response?.text()).toMatch(new RegExp(`${KEPT_AT_ATTRIBUTE}="\\d{13}" ${FIRST_READ_ATTRIBUTE}="channelPosts"`));
      expect(await starter.page.evaluate(() => (window as unknown as { postsInHtml: boolean }).postsInHtml)).toBe(true);
      // Then the app takes over with the same posts, and says the network is down.
      await starter.page.locator(`html[data-layout] main article[aria-labelledby="post-${newest.id}-author"]`).waitFor();
      await starter.page.getByText('网络异常').first().waitFor({ state: 'visible' });

      // Back online, a post is written elsewhere; the reader leaves the app: the next start shows it.
      await starter.context.setOffline(false);
      const writer = await logInByApi(app, '15600097001');
      const written = await callAs<Post>(app, writer, api.postAdd.path, { content: '离开时的新动态', channel_id: [newest.channels[0]!.channel_id], attach: [], client_id: `kept-${Date.now()}` });
      await starter.page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await expect.poll(keptPage).toContain(`aria-labelledby="post-${written.id}-author"`);

      // Logging out drops it with the cached answers: the next person does not see the last one's likes.
      await starter.page.evaluate((type) => navigator.serviceWorker.controller?.postMessage({ type }), MSG_CLEAR_API_CACHE);
      await expect.poll(keptPage).toBeUndefined();
      // Without a copy, an offline start of /home is the app's shell, which starts as before.
      await starter.context.setOffline(true);
      const bare = await starter.page.reload();
      expect(bare?.fromServiceWorker()).toBe(true);
      expect(await bare?.text()).toContain('<div id="root"></div>');
      await starter.page.locator('html[data-layout] main article').first().waitFor();
    } finally {
      await starter.close();
    }
  });

  it('leaves navigations to server paths to the network, never index.html', async () => {
    await page.goto(`${app.url}/home`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    for (const path of ['/serv/v1/no_such_call', '/docs', '/robots.txt']) {
      const response = await page.goto(`${app.url}${path}`);
      expect(response?.fromServiceWorker(), path).toBe(false);
      expect(await response?.text(), path).not.toContain('<div id="root">');
    }
  });
});

describe('a new version', () => {
  it('is offered as 有新版本 once installed; 刷新 activates it and the page reloads into it', async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), 'feed-e2e-update-'));
    const env = { PORT: String(port), DATA_DIR: dataDir };
    let app = await startApp({ env });
    const browser = await launchBrowser();
    const { page } = browser;
    try {
      await page.goto(`${app.url}/home`);
      await page.waitForFunction(async () => Boolean(await navigator.serviceWorker.ready));
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      expect(await page.getByText('有新版本').count()).toBe(0);

      // The same address serves a new version: another provider name changes the page, so sw.js changes.
      await app.stop();
      app = await startApp({ env: { ...env, PROVIDER_NAME: '学而社' } });
      await page.reload();
      // The old worker still serves the old page, and offers the new one.
      expect(await page.title()).toBe(PROVIDER_TITLE);
      await page.getByText('有新版本').waitFor();
      await page.getByRole('button', { name: '刷新' }).click();
      await page.waitForFunction(() => document.title === '学而社');
      await page.getByRole('banner').getByRole('link', { name: '学而社社区首页' }).waitFor();
    } finally {
      await browser.close();
      await app.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
