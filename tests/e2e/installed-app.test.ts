/**
 * The installed app against the built app and the real server, in a persistent
 * Chromium profile whose service worker controls the page: the manifest's shortcuts, categories,
 * screenshots, dir and share target (Chromium parses it without errors); the shortcuts open what
 * they say; a share opens the composer filled with the shared title, text and link (offline too,
 * and after a login when logged out); 安装应用 where the browser offers the install; missing
 * files are the server's 404 through the worker too, never the app shell; a second build
 * deployed at the same address is offered as 有新版本, 刷新 reloads into it, and the draft and
 * every IndexedDB database are still there.
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { execFile } from 'node:child_process';
import { appendFile, cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { freePort } from '../support/ports.ts';
import { callApi, PROJECT_ROOT, startApp, type RunningApp } from './support/app.ts';
import { storedDraft } from './support/stored-draft.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { fillLogin, logIn } from './support/session.ts';

interface Manifest {
  dir: string;
  categories: string[];
  shortcuts: Array<{ name: string; url: string; icons: Array<{ src: string; sizes: string }> }>;
  screenshots: Array<{ src: string; sizes: string; type: string; form_factor: string; label: string }>;
  share_target: { action: string; method: string; enctype: string; params: Record<string, unknown> };
  launch_handler: { client_mode: string[] };
  display_override: string[];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

/** Opens /home and lets the service worker take the page over. */
async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/home`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

const composer = (page: Page) => page.getByRole('dialog', { name: '发动态' });
const composerText = (page: Page) => composer(page).getByRole('textbox', { name: '动态内容' });

/** The text of the post draft as stored in IndexedDB, or undefined. */
const storedDraftText = (page: Page) => storedDraft(page).then((draft) => draft?.content);

/** Empties the draft (and waits until that is stored), then closes the composer. */
async function discardDraft(page: Page): Promise<void> {
  await composerText(page).fill('');
  await expect.poll(() => storedDraftText(page)).toBe('');
  await composer(page).getByRole('button', { name: '关闭' }).click();
  await composer(page).waitFor({ state: 'detached' });
}

const SHARE = { title: '一篇好文章', text: '推荐大家读一读：讲 PWA 离线的', url: 'https://example.com/articles/pwa.html' };
const shareAddress = (url: string) => `${url}/share-target?${new URLSearchParams(SHARE)}`;

let app: RunningApp;
// A port and a data folder of the file's own: the last test deploys a second build on them.
let env: { PORT: string; DATA_DIR: string } | undefined;

/** The last test's second build, made while the tests before it run (they mostly wait on the browser). */
let secondBuild: Promise<string>;

beforeAll(async () => {
  secondBuild = buildSecondClient();
  // Awaited by the last test; a failure before then is its failure, not an unhandled rejection.
  void secondBuild.catch(() => undefined);
  env = { PORT: String(await freePort()), DATA_DIR: await mkdtemp(join(tmpdir(), 'feed-e2e-installed-')) };
  app = await startApp({ env });
});
afterAll(async () => {
  await app?.stop();
  if (env) await rm(env.DATA_DIR, { recursive: true, force: true });
  const built = await secondBuild?.catch(() => undefined);
  if (built) await rm(built, { recursive: true, force: true });
});

describe('the installed app', () => {
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = browser.page;
    await openControlled(page, app.url);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('has shortcuts, categories, screenshots, a direction and a share target in its manifest', async () => {
    const manifest = (await (await fetch(`${app.url}/manifest.webmanifest`)).json()) as Manifest;
    expect(manifest.dir).toBe('ltr');
    expect(manifest.categories).toEqual(expect.arrayContaining(['education', 'social']));
    expect(manifest.shortcuts.map(({ name, url }) => ({ name, url }))).toEqual([
      { name: '发动态', url: '/home?compose=1' },
      { name: '关注', url: '/follow' },
    ]);
    expect(manifest.share_target).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'images', accept: ['image/*'] }] },
    });
    // One window: a link or a share goes to the window already open.
    expect(manifest.launch_handler).toEqual({ client_mode: ['navigate-existing', 'auto'] });
    expect(manifest.display_override).toEqual(['standalone', 'minimal-ui']);
    expect(manifest.screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots) {
      const image = await fetch(`${app.url}${shot.src}`);
      expect(image.status, shot.src).toBe(200);
      expect(shot.type).toBe('image/png');
      expect(pngSize(new Uint8Array(await image.arrayBuffer())), shot.src).toBe(shot.sizes);
      expect(shot.label).not.toBe('');
    }
    for (const icon of manifest.shortcuts.flatMap((shortcut) => shortcut.icons)) {
      expect((await fetch(`${app.url}${icon.src}`)).status, icon.src).toBe(200);
    }
    // Chromium reads it as we mean it: no errors, and the shortcuts and the share target are there.
    const session = await page.context().newCDPSession(page);
    try {
      const read = (await session.send('Page.getAppManifest')) as { errors: Array<{ message: string }>; data: string };
      expect(read.errors).toEqual([]);
      expect(JSON.parse(read.data)).toMatchObject({ share_target: { action: '/share-target' }, shortcuts: [{ name: '发动态' }, { name: '关注' }] });
    } finally {
      await session.detach();
    }
  });

  it('offers 安装应用 where the browser can install the app; the entry opens its dialog once', async () => {
    // Told by the page: the browser's offers (beforeinstallprompt) and the dialogs opened (prompt()).
    await page.addInitScript(() => {
      const seen = { offers: 0, dialogs: 0 };
      Object.assign(window, { installSeen: seen });
      addEventListener('beforeinstallprompt', () => (seen.offers += 1));
      const prototype = (window as unknown as { BeforeInstallPromptEvent: { prototype: { prompt(): Promise<unknown> } } }).BeforeInstallPromptEvent.prototype;
      const prompt = prototype.prompt;
      prototype.prompt = function (this: unknown) {
        seen.dialogs += 1;
        return prompt.call(this);
      };
    });
    const seen = () => page.evaluate(() => (window as unknown as { installSeen: { offers: number; dialogs: number } }).installSeen);
    await page.goto(`${app.url}/home`);
    const entry = page.getByRole('button', { name: '安装应用' });
    await entry.waitFor();
    await entry.click();
    // The offer is spent on its dialog (headless Chromium answers it at once): the entry goes, and
    // comes back only with the browser's next offer (Chromium offers again once told no).
    await expect.poll(async () => (await seen()).dialogs).toBe(1);
    await expect.poll(async () => (await entry.count()) === 0 || (await seen()).offers > 1).toBe(true);
    expect((await seen()).dialogs).toBe(1);
  });

  it('opens a missing file as the server answers it, a 404, never the app shell', async () => {
    for (const path of ['/assets/index-missing.js', '/icons/none.png', '/favicon-x.png', '/deep/folder/style.css']) {
      const response = await page.goto(`${app.url}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(response?.fromServiceWorker(), path).toBe(false);
      expect(await response?.text(), path).not.toContain('<div id="root">');
    }
    // A page of the app with a link in its query is still a page, from the worker.
    const share = await page.goto(`${app.url}/topic/list?from=${encodeURIComponent('https://example.com/a/page.html')}`);
    expect(share?.fromServiceWorker()).toBe(true);
    expect(await share?.text()).toContain('<div id="root">');
  });

  describe('logged out', () => {
    it('asks for the login when 发动态 is opened by its shortcut, then opens the composer', async () => {
      await page.goto(`${app.url}/home?compose=1`);
      await page.getByRole('dialog', { name: '手机号登录' }).waitFor();
      expect(await composer(page).count()).toBe(0);
      await fillLogin(app, page, '13900000301');
      await composerText(page).waitFor();
      await discardDraft(page);
    });
  });

  describe('logged in', () => {
    beforeAll(async () => {
      const fresh = await launchBrowser();
      await browser.close();
      browser = fresh;
      page = fresh.page;
      await openControlled(page, app.url);
      await logIn(app, page, '13900000302');
    });

    it('opens the composer from the 发动态 shortcut and the followed feed from 关注', async () => {
      await page.goto(`${app.url}/home?compose=1`);
      await composerText(page).waitFor();
      await composer(page).getByRole('button', { name: '关闭' }).click();
      await composer(page).waitFor({ state: 'detached' });
      await page.goto(`${app.url}/follow`);
      await page.getByRole('navigation', { name: '动态分类' }).getByRole('link', { name: '关注' }).waitFor();
      expect(await page.getByRole('navigation', { name: '动态分类' }).getByRole('link', { name: '关注' }).getAttribute('aria-current')).toBe('page');
    });

    it('opens a share in the composer: its title, text and link, once, after what the draft held', async () => {
      await page.goto(`${app.url}/home?compose=1`);
      await composerText(page).fill('先写的一句');
      await expect.poll(() => storedDraftText(page)).toBe('先写的一句');
      await page.goto(shareAddress(app.url));
      await expect.poll(() => composerText(page).inputValue()).toBe(`先写的一句\n\n${SHARE.title}\n${SHARE.text}\n${SHARE.url}`);
      // The share has left the address: a reload shows the draft, not the share twice.
      await expect.poll(() => new URL(page.url()).search).toBe('?compose=1');
      expect(new URL(page.url()).pathname).toBe('/home');
      await page.reload();
      await expect.poll(() => composerText(page).inputValue()).toBe(`先写的一句\n\n${SHARE.title}\n${SHARE.text}\n${SHARE.url}`);
      await discardDraft(page);
    });

    it('takes pictures shared from the phone\'s gallery, offline too: they wait with the post and are published with it', async () => {
      const text = `分享进来的照片 ${Date.now()}`;
      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3b82f6' } }).png().toBuffer();
      // The composer's code and channels, read once online.
      await page.goto(`${app.url}/home?compose=1`);
      await composer(page).locator('.composer-chip').first().waitFor();
      await discardDraft(page);
      await browser.context.setOffline(true);
      try {
        // What the phone's share sheet sends: a POST of the manifest's form, the picture a file in it.
        await page.evaluate(
          ({ action, field, words }) => {
            const form = Object.assign(document.createElement('form'), { method: 'post', enctype: 'multipart/form-data', action });
            form.innerHTML = `<input type="hidden" name="text"><input type="file" name="${field}" multiple>`;
            form.querySelector<HTMLInputElement>('input[name="text"]')!.value = words;
            document.body.append(form);
          },
          { action: '/share-target', field: 'images', words: text },
        );
        await page.locator('form[action="/share-target"] input[type="file"]').setInputFiles({ name: 'gallery.png', mimeType: 'image/png', buffer: photo });
        await page.evaluate(() => document.querySelector<HTMLFormElement>('form[action="/share-target"]')!.submit());
        await page.waitForURL((url) => url.pathname === '/home' && url.search === '?compose=1');
        await expect.poll(() => composerText(page).inputValue()).toBe(text);
        await composer(page).locator('.composer-image img').waitFor();
        await composer(page).locator('.composer-chip').first().click();
        await composer(page).getByRole('button', { name: '发布', exact: true }).click();
        await composer(page).waitFor({ state: 'detached' });
        await page.getByRole('region', { name: '待发送的动态' }).locator('article', { hasText: text }).getByText('待发送').waitFor();
      } finally {
        await browser.context.setOffline(false);
      }
      await expect
        .poll(async () => (await callApi(app, api.channelPosts, { tab: 'all', size: 20 })).list.filter((post) => post.content === text), { timeout: 30_000 })
        .toHaveLength(1);
      const [published] = (await callApi(app, api.channelPosts, { tab: 'all', size: 20 })).list.filter((post) => post.content === text);
      expect(published!.attach.filter((attachment) => attachment.type === 'image')).toHaveLength(1);
    });

    it('opens a share offline, from the service worker', async () => {
      await browser.context.setOffline(true);
      try {
        const response = await page.goto(shareAddress(app.url));
        expect(response?.fromServiceWorker()).toBe(true);
        await expect.poll(() => composerText(page).inputValue()).toBe(`${SHARE.title}\n${SHARE.text}\n${SHARE.url}`);
        await discardDraft(page);
      } finally {
        await browser.context.setOffline(false);
      }
    });
  });

  describe('a share while logged out', () => {
    it('is kept in the draft while the login is asked for, and shown after it', async () => {
      const fresh = await launchBrowser();
      try {
        await openControlled(fresh.page, app.url);
        await fresh.page.goto(shareAddress(app.url));
        await fresh.page.getByRole('dialog', { name: '手机号登录' }).waitFor();
        await fillLogin(app, fresh.page, '13900000303');
        await expect.poll(() => composerText(fresh.page).inputValue()).toBe(`${SHARE.title}\n${SHARE.text}\n${SHARE.url}`);
      } finally {
        await fresh.close();
      }
    });
  });
});

/**
 * A second build of the client, as a deploy ships it: the source as it is, with one change (the
 * page marks its build), built by Vite into a folder of its own. Resolves with that folder.
 */
async function buildSecondClient(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'feed-e2e-second-build-'));
  for (const entry of ['index.html', 'package.json', 'tsconfig.json', 'vite.config.ts', 'src', 'sw', 'public']) {
    await cp(join(PROJECT_ROOT, entry), join(dir, entry), { recursive: true });
  }
  await symlink(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'));
  await appendFile(join(dir, 'src/client/app/main.tsx'), "\ndocument.documentElement.dataset.build = 'second';\n");
  await promisify(execFile)(process.execPath, [join(PROJECT_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
    cwd: dir,
  });
  return dir;
}

/** The IndexedDB databases of the origin, by name. */
const databases = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name ?? '').sort());

describe('a second build deployed at the same address', () => {
  let secondBuildDir: string;

  beforeAll(async () => {
    secondBuildDir = await secondBuild;
  });

  it('is offered as 有新版本; 刷新 reloads into it, and the draft is still there', async () => {
    const browser = await launchBrowser();
    const { page } = browser;
    try {
      await openControlled(page, app.url);
      await logIn(app, page, '13900000304');
      await page.goto(`${app.url}/home?compose=1`);
      await composerText(page).fill('升级前写了一半的草稿');
      await expect.poll(() => storedDraftText(page)).toBe('升级前写了一半的草稿');
      await composer(page).getByRole('button', { name: '关闭' }).click();
      const before = await databases(page);
      expect(before).toEqual(expect.arrayContaining(['horde-drafts', 'local-cache:query-cache']));

      // The deploy: the same server, address and database, serving the second build.
      await app.stop();
      app = await startApp({ env: { ...env!, CLIENT_DIR: join(secondBuildDir, 'dist/client') } });
      await page.reload();
      // The worker of the first build still serves it, and offers the second.
      await page.getByText('有新版本').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.build)).toBeUndefined();
      await page.getByRole('button', { name: '刷新' }).click();
      await page.waitForFunction(() => document.documentElement.dataset.build === 'second');
      expect(await page.getByText('有新版本').count()).toBe(0);

      expect(await databases(page)).toEqual(before);
      await page.goto(`${app.url}/home?compose=1`);
      await expect.poll(() => composerText(page).inputValue()).toBe('升级前写了一半的草稿');
      expect(await page.evaluate(() => document.documentElement.dataset.build)).toBe('second');
    } finally {
      await browser.close();
    }
  });
});
