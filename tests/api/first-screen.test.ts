/**
 * The first screen of a first visit: a navigation to /home carries the feed's
 * first page, exactly channel/posts's answer for the same caller (likes included), safely inside
 * a data element, and the first screen rendered from it inside #root by the app's components
 * (src/client/app/first-screen.server.tsx, loaded here from its source where the build's
 * dist/ssr/first-screen.js would be), its entry started after the first paint; a post detail
 * and a user centre the same with post/detail's answer, and user/info's and user/posts's; /index.html (what the
 * service worker keeps) and other pages carry neither; the build's stylesheet comes
 * inline, so nothing but the page blocks the first paint.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { DEFAULT_CLIENT_CONFIG } from '../../src/shared/client-config.ts';
import { TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import {
  COMMENT_PAGE_SIZE,
  FIRST_FEED_PAGE_INPUT,
  FIRST_READ_ATTRIBUTE,
  START_AFTER_FIRST_PAINT_PATH,
  USER_POSTS_PAGE_SIZE,
} from '../../src/shared/first-screen.ts';
import type { Comment, Paged, Post, UserInfo } from '../../src/shared/schemas.ts';
import { posts } from '../../src/server/db/schema.ts';
import { createTestApp, type TestApp } from '../support/api.ts';
import { openTestDatabase } from '../support/db.ts';

/** A stylesheet as big as a real one's start: the page passes the compression threshold. */
const CSS = `body{color:#222}${Array.from({ length: 120 }, (_, i) => `.rule-${i}{padding:${i}px}`).join('')}`;

/** The page as `vite build` writes it: the entry script and its stylesheet in the head. */
const BUILD_INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8" />
    <title>极客时间</title>
    <script type="module" crossorigin src="/assets/index-tF_XAYai.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-WQil5ICt.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/** The stylesheets of the pages' code, as the build writes them. */
const PAGE_CSS = { 'message-D7Y0oJy0.css': '.comments{margin:0}', 'dialog-DUlVSIc9.css': '.dialog{inset:0}', 'user-BNjHOs1k.css': '.profile{display:grid}' };
const BUILD_MANIFEST = {
  'index.html': { file: 'assets/index-tF_XAYai.js', isEntry: true, css: ['assets/index-WQil5ICt.css'] },
  _dialog: { file: 'assets/dialog-X.js', imports: ['index.html'], css: ['assets/dialog-DUlVSIc9.css'] },
  'src/client/routes/message.lazy.tsx': { file: 'assets/message.lazy-X.js', imports: ['index.html', '_dialog'], css: ['assets/message-D7Y0oJy0.css'] },
  'src/client/routes/user.lazy.tsx': { file: 'assets/user.lazy-X.js', imports: ['index.html'], css: ['assets/user-BNjHOs1k.css'] },
};

const HOSTILE = '</script><script>alert(1)</script><!-- \u2028 & <b>';

/** The server's render, as the build's dist/ssr/first-screen.js exports it. */
const RENDER_SOURCE = resolve(import.meta.dirname, '../../src/client/app/first-screen.server.tsx');
/**
 * Budgets no read or render reaches however busy the machine: whether a page carries its first
 * screen never depends on the machine's speed here. The budgets themselves are tested with reads
 * held and renders that cannot end ('the budgets a page waits by').
 */
const AMPLE_BUDGETS = { FIRST_SCREEN_READ_WAIT_MS: '600000', FIRST_SCREEN_RENDER_LIMIT_MS: '600000' };
const AMPLE_MS = 600_000;

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** A build's folders: client/ (the page, its stylesheet, the start script) and ssr/ beside it. */
let buildDir: string;
let clientDir: string;
let t: TestApp;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'build-first-screen-'));
  clientDir = join(buildDir, 'client');
  await mkdir(join(clientDir, 'assets'), { recursive: true });
  await writeFile(join(clientDir, 'index.html'), BUILD_INDEX_HTML);
  await writeFile(join(clientDir, 'assets', 'index-WQil5ICt.css'), CSS);
  await writeFile(join(clientDir, START_AFTER_FIRST_PAINT_PATH), '// the start script\n');
  // What Vite's manifest says of the pages' code: the post's page imports a chunk with a stylesheet of its own.
  await mkdir(join(clientDir, '.vite'));
  await writeFile(join(clientDir, '.vite', 'manifest.json'), JSON.stringify(BUILD_MANIFEST));
  for (const [name, css] of Object.entries(PAGE_CSS)) await writeFile(join(clientDir, 'assets', name), css);
  await mkdir(join(buildDir, 'ssr'));
  await writeFile(join(buildDir, 'ssr', 'first-screen.js'), `export { renderFirstScreen } from ${JSON.stringify(RENDER_SOURCE)};\n`);
  t = await createTestApp(await openTestDatabase(), { closeDatabase: true, clientDir, env: AMPLE_BUDGETS });
});
afterAll(async () => {
  await t?.close();
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

const page = (url: string, ticket?: string, userAgent = PHONE_UA) =>
  t.app.inject({ method: 'GET', url, cookies: ticket ? { [TICKET_COOKIE]: ticket } : {}, headers: { 'user-agent': userAgent }, remoteAddress: '10.9.0.1' });

/** What the page has inside #root (up to the scripts after it). */
function rootOf(html: string): string {
  const match = /<div id="root">([\s\S]*?)<\/div>\s*(?:<script|<\/body>)/.exec(html);
  expect(match, 'the page has a #root').not.toBeNull();
  return match![1]!;
}

/** HTML-escaped as React writes text. */
const asText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** The answer a page carries for `endpoint`, read as the client reads it; undefined when it has none. */
function carriedAnswer<T>(html: string, endpoint: string): T | undefined {
  const match = new RegExp(`<script type="application/json" ${FIRST_READ_ATTRIBUTE}="${endpoint}">([\\s\\S]*?)</script>`).exec(html);
  if (!match) return undefined;
  const envelope = JSON.parse(match[1]!) as { code: number; data: T };
  expect(envelope.code).toBe(0);
  return envelope.data;
}

const carriedPage = (html: string) => carriedAnswer<Paged<Post>>(html, 'channelPosts');

describe('the first feed page inside the page', () => {
  it('comes with /home and /, and is channel/posts’s own answer', async () => {
    const answer = (await t.call<Paged<Post>>(api.channelPosts, FIRST_FEED_PAGE_INPUT)).data();
    expect(answer.list.length).toBeGreaterThan(0);
    for (const url of ['/home', '/', '/home?compose=1&utm_source=x']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('private, no-cache');
      expect(carriedPage(response.body), url).toEqual(answer);
    }
  });

  it('is the caller’s: a logged-in reader sees the like they gave', async () => {
    const me = await t.login('15600098001');
    const visitorPage = carriedPage((await page('/home')).body)!;
    const first = visitorPage.list[0]!;
    expect(first.is_like).toBe(false);
    (await t.call(api.likeAdd, { post_id: first.id, type: 1 }, { ticket: me.ticket })).data();
    const mine = carriedPage((await page('/home', me.ticket)).body)!;
    expect(mine.list[0]).toMatchObject({ id: first.id, is_like: true });
    expect(carriedPage((await page('/home')).body)!.list[0]!.is_like).toBe(false);
  });

  it('is left out when the read fails: a ticket ended by a login elsewhere still gets the page, without it', async () => {
    const phone = '15600098002';
    const ended = await t.login(phone);
    await t.login(phone);
    const response = await page('/home', ended.ticket);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(carriedPage(response.body)).toBeUndefined();
  });

  it('never comes with /index.html (what the service worker keeps) nor with other pages', async () => {
    for (const url of ['/index.html', '/message/detail/5', '/follow', '/channel/1']) {
      expect(carriedPage((await page(url)).body), url).toBeUndefined();
    }
    for (const url of ['/index.html', '/follow', '/channel/1', '/message/detail/99999999', '/message/detail/abc', '/usercenter/nobody-here']) {
      expect((await page(url)).body, url).not.toContain(FIRST_READ_ATTRIBUTE);
    }
  });

  it('keeps hostile text inside its data element and as text in the first screen: the page runs no more scripts than the build’s', async () => {
    const firstId = carriedPage((await page('/home')).body)!.list[0]!.id;
    await t.database.db.update(posts).set({ content: HOSTILE }).where(eq(posts.id, firstId));
    const html = (await page('/home')).body;
    expect(carriedPage(html)!.list.find((post) => post.id === firstId)?.content).toBe(HOSTILE);
    expect(rootOf(html)).toContain(asText(HOSTILE));
    const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map((tag) => tag[0]);
    expect(scripts.filter((tag) => !/type="application\/json"/.test(tag))).toEqual([
      `<script type="module" src="${START_AFTER_FIRST_PAINT_PATH}" data-app-entry="/assets/index-tF_XAYai.js">`,
    ]);
    expect(html.match(/<\/script>/gi)).toHaveLength(scripts.length);
    // A replacement pattern in a post is text too, not the page's own text put back.
    await t.database.db.update(posts).set({ content: 'a $& b $` c $\' d' }).where(eq(posts.id, firstId));
    expect(rootOf((await page('/home')).body)).toContain(asText("a $& b $` c $' d"));
  });

  it('revalidates as a 304 while the feed is unchanged', async () => {
    // The page is rendered by the minute (its readable times): a first request just before a
    // minute ends is followed by one in the next, whose page is another; the one after is the same.
    let etag = String((await page('/home')).headers.etag);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 2 && statuses.at(-1) !== 304; attempt++) {
      const again = await t.app.inject({ method: 'GET', url: '/home', headers: { 'if-none-match': etag, 'user-agent': PHONE_UA }, remoteAddress: '10.9.0.1' });
      statuses.push(again.statusCode);
      etag = String(again.headers.etag);
    }
    expect(statuses.at(-1)).toBe(304);
  });
});

describe('the first screen rendered inside the page', () => {
  it('comes with /home and /: the layout and the first posts inside #root, from the app’s components', async () => {
    const first = carriedPage((await page('/home')).body)!.list[0]!;
    for (const url of ['/home', '/']) {
      const root = rootOf((await page(url)).body);
      expect(root, url).toMatch(/^<div class="first-screen first-screen--mobile" data-rendered-at="\d+"><div class="app app--mobile">/);
      expect(root, url).toContain('<nav class="feed-tabs__nav" aria-label="动态分类">');
      expect(root, url).toContain(`<article class="post-card" aria-labelledby="post-${first.id}-author">`);
      expect(root, url).toContain(asText(first.content.slice(0, 20)));
      expect(root, url).toContain(`>${asText(first.user.nick)}</a>`);
      expect(root, url).not.toMatch(/<script|<template/i);
    }
    // /home's styles are the entry's alone.
    expect((await page('/home')).body).not.toMatch(/\.profile\{|\.comments\{/);
  });

  it('is the PC layout for a desktop browser', async () => {
    const root = rootOf((await page('/home', undefined, DESKTOP_UA)).body);
    expect(root).toMatch(/^<div class="first-screen first-screen--pc" data-rendered-at="\d+"><div class="app app--pc">/);
    expect(root).toContain('<nav class="sidebar" aria-label="社区导航">');
    expect(root).not.toContain('feed-tabs');
  });

  it('starts the app after the first paint: the start script loads and runs the entry', async () => {
    const html = (await page('/home')).body;
    expect(html).toContain(`<script type="module" src="${START_AFTER_FIRST_PAINT_PATH}" data-app-entry="/assets/index-tF_XAYai.js"></script>`);
    expect(html).not.toMatch(/<script[^>]* src="\/assets\/index-tF_XAYai\.js"|<link[^>]*href="\/assets\/index-tF_XAYai\.js"/);
  });

  it('comes with a post: the post and its first comments inside #root, from post/detail’s and comment/list’s own answers', async () => {
    const post = carriedPage((await page('/home')).body)!.list[1]!;
    const commenter = await t.login('15600098003');
    const said = `第一条评论 <b>${HOSTILE}`;
    (await t.call(api.commentAdd, { post_id: post.id, content: said, client_id: 'first-screen-comment-1' }, { ticket: commenter.ticket })).data();
    const html = (await page(`/message/detail/${post.id}`)).body;
    expect(carriedAnswer<Post>(html, 'postDetail')).toEqual((await t.call<Post>(api.postDetail, { post_id: post.id })).data());
    const firstComments = { post_id: post.id, index: 0, size: COMMENT_PAGE_SIZE };
    const comments = carriedAnswer<Paged<Comment>>(html, 'commentList')!;
    expect(comments).toEqual((await t.call<Paged<Comment>>(api.commentList, firstComments)).data());
    expect(comments.list.map((comment) => comment.content)).toContain(said);
    const root = rootOf(html);
    expect(root).toMatch(/^<div class="first-screen first-screen--mobile" data-rendered-at="\d+"><div class="app app--mobile">/);
    expect(root).toContain(asText(post.content.slice(0, 20)));
    expect(root).toContain(`>${asText(post.user.nick)}</a>`);
    // The comments themselves, not their skeleton: the client shows them at once too (lib/carried-by-page.ts).
    expect(root).toContain('<ul class="comment-list">');
    expect(root).toContain(asText(said));
    expect(root).not.toContain('评论加载中');
    expect(root).not.toMatch(/<script|<template/i);
    // Styled as the client's page will be: its code's stylesheets (the chunk it imports first), inline.
    expect(html).toContain(`<style>${CSS}</style>`);
    // Each also named by a link never fetched nor applied, so the page’s code adds no second copy when it loads.
    expect(html).toContain(
      '<style>.dialog{inset:0}</style><link rel="stylesheet" href="/assets/dialog-DUlVSIc9.css" type="text/x-inlined-above" disabled>' +
        '<style>.comments{margin:0}</style><link rel="stylesheet" href="/assets/message-D7Y0oJy0.css" type="text/x-inlined-above" disabled></head>',
    );
    expect(html).not.toContain('.profile{display:grid}');
  });

  it('comes with a user centre, by id and by ucode: the profile and the first posts inside #root, from user/info’s and user/posts’s own answers', async () => {
    const author = carriedPage((await page('/home')).body)!.list[0]!.user;
    const theirPosts = (await t.call<Paged<Post>>(api.userPosts, { visit_user_id: author.uid, index: 0, size: USER_POSTS_PAGE_SIZE })).data();
    expect(theirPosts.list.length).toBeGreaterThan(0);
    for (const [url, visit] of [
      [`/usercenter/${author.uid}`, { visit_user_id: author.uid }],
      [`/usercenter/${encodeURIComponent(author.ucode)}`, { visit_ucode: author.ucode }],
    ] as const) {
      const html = (await page(url, undefined, DESKTOP_UA)).body;
      const profile = carriedAnswer<UserInfo>(html, 'userInfo');
      expect(profile, url).toMatchObject({ uid: author.uid, nick: author.nick });
      const answer = (await t.call<Paged<Post>>(api.userPosts, { ...visit, index: 0, size: USER_POSTS_PAGE_SIZE })).data();
      expect(carriedAnswer<Paged<Post>>(html, 'userPosts'), url).toEqual(answer);
      const root = rootOf(html);
      expect(root, url).toMatch(/^<div class="first-screen first-screen--pc" data-rendered-at="\d+"><div class="app app--pc">/);
      expect(root, url).toContain(`<h1 id="profile-nick" class="profile__nick">${asText(author.nick)}`);
      // The posts, not their skeleton: the client shows them at once too (lib/carried-by-page.ts).
      expect(root, url).toContain(`<article class="post-card" aria-labelledby="post-${theirPosts.list[0]!.id}-author">`);
      expect(root, url).not.toContain('post-card--skeleton');
      expect(root, url).not.toMatch(/<script|<template/i);
      expect(html, url).toContain('<style>.profile{display:grid}</style><link rel="stylesheet" href="/assets/user-BNjHOs1k.css" type="text/x-inlined-above" disabled></head>');
    }
  });

  it('never comes with /index.html (the service worker’s page, offline starts too) nor other pages: their #root is empty, their entry the build’s', async () => {
    for (const url of ['/index.html', '/follow', '/message/detail/99999999', '/usercenter/nobody-here']) {
      const html = (await page(url)).body;
      expect(html, url).toContain('<div id="root"></div>');
      expect(html, url).toContain('<script type="module" crossorigin src="/assets/index-tF_XAYai.js"></script>');
    }
  });
});

describe('the render under load', () => {
  it('keeps at most MAX_WAITING_RENDERS waiting: a page beyond them goes without, at once', async () => {
    const { renderFirstScreen, MAX_WAITING_RENDERS } = await import('../../src/client/app/first-screen.server.tsx');
    const data = (await t.call<Paged<Post>>(api.channelPosts, FIRST_FEED_PAGE_INPUT)).data();
    const reads = [{ endpoint: 'channelPosts' as const, input: FIRST_FEED_PAGE_INPUT, data }] as const;
    const input = { path: '/home', page: 'home' as const, reads, config: DEFAULT_CLIENT_CONFIG, userAgent: PHONE_UA, limitMs: AMPLE_MS };
    const burst = await Promise.all(Array.from({ length: MAX_WAITING_RENDERS + 12 }, () => renderFirstScreen(input)));
    expect(burst.filter((html) => html.includes('class="post-card"'))).toHaveLength(MAX_WAITING_RENDERS);
    expect(burst.filter((html) => html === '')).toHaveLength(12);
    // The queue empties: the next page is rendered again.
    expect(await renderFirstScreen(input)).toContain('class="post-card"');
  });
});

describe('the budgets a page waits by (FIRST_SCREEN_READ_WAIT_MS, FIRST_SCREEN_RENDER_LIMIT_MS)', () => {
  it('a page waits for its read as long as its budget says, and goes without it after', async () => {
    // Both servers' feed reads are held until the hasty one's page has been answered.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let answeredReads = 0;
    const holdFeedReads = (app: FastifyInstance) => {
      app.addHook('onRequest', async (request) => {
        if (request.url === api.channelPosts.path) await gate;
      });
      app.addHook('onResponse', async (request) => {
        if (request.url === api.channelPosts.path) answeredReads++;
      });
    };
    const patient = await createTestApp(t.database, { clientDir, env: AMPLE_BUDGETS, beforeReady: holdFeedReads });
    const hasty = await createTestApp(t.database, { clientDir, env: { ...AMPLE_BUDGETS, FIRST_SCREEN_READ_WAIT_MS: '1' }, beforeReady: holdFeedReads });
    const home = (app: TestApp) => app.app.inject({ method: 'GET', url: '/home', headers: { 'user-agent': PHONE_UA }, remoteAddress: '10.9.0.3' });
    try {
      const patientPage = home(patient);
      const hastyPage = await home(hasty);
      expect(hastyPage.statusCode).toBe(200);
      expect(carriedPage(hastyPage.body)).toBeUndefined();
      expect(rootOf(hastyPage.body)).toBe('');
      release();
      const waited = await patientPage;
      expect(carriedPage(waited.body)?.list.length).toBeGreaterThan(0);
      expect(rootOf(waited.body)).toContain('class="post-card"');
      // The hasty page's read, answered after its page, is dropped.
      await expect.poll(() => answeredReads).toBe(2);
    } finally {
      release();
      await patient.close();
      await hasty.close();
    }
  });

  it('a render still waiting at its limit gives no first screen', async () => {
    const { renderFirstScreen } = await import('../../src/client/app/first-screen.server.tsx');
    const [shown] = (await t.call<Paged<Post>>(api.channelPosts, FIRST_FEED_PAGE_INPUT)).data().list;
    // The page of another post than the one carried: its loader waits for a read that never comes.
    const reads = [{ endpoint: 'postDetail' as const, input: { post_id: shown!.id }, data: shown! }] as const;
    const input = { path: `/message/detail/${shown!.id + 1}`, page: 'post' as const, reads, config: DEFAULT_CLIENT_CONFIG, userAgent: PHONE_UA, limitMs: 1 };
    expect(await renderFirstScreen(input)).toBe('');
  });
});

describe('every page', () => {
  it('travels compressed, as the API’s answers do', async () => {
    for (const url of ['/index.html', '/home', '/message/detail/5', '/no/such/page']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' }, remoteAddress: '10.9.0.2' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('gzip');
    }
    // Files that are not there, and unknown calls, are still the envelope's 404.
    expect((await t.app.inject({ method: 'GET', url: '/assets/nope.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/serv/v1/nothing' })).json()).toMatchObject({ code: -1, error: { code: -1005 } });
  });
});

describe('the build’s stylesheet', () => {
  it('is inline in every page, so the first paint waits for no other file', async () => {
    for (const url of ['/index.html', '/home', '/message/detail/5']) {
      const html = (await page(url)).body;
      // No stylesheet to fetch: the page’s own are inline, the links that name them disabled and of a type never loaded.
      expect(html, url).not.toMatch(/<link[^>]*rel="stylesheet"(?![^>]*\sdisabled>)[^>]*>/);
      expect(html, url).toContain(`<style>${CSS}</style><link rel="stylesheet" href="/assets/index-WQil5ICt.css" type="text/x-inlined-above" disabled>`);
    }
  });
});
