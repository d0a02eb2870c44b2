/**
 * The first screen of a first visit (issue 11, item 3): a navigation to /home carries the feed's
 * first page, exactly channel/posts's answer for the same caller (likes included), safely inside
 * a data element; /index.html (what the service worker keeps) and other pages do not; the build's
 * stylesheet comes inline, so nothing but the page blocks the first paint.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { FIRST_FEED_PAGE_ELEMENT_ID, FIRST_FEED_PAGE_INPUT } from '../../src/shared/first-screen.ts';
import type { Paged, Post } from '../../src/shared/schemas.ts';
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

const HOSTILE = '</script><script>alert(1)</script><!-- \u2028 & <b>';

let clientDir: string;
let t: TestApp;

beforeAll(async () => {
  clientDir = await mkdtemp(join(tmpdir(), 'client-first-screen-'));
  await mkdir(join(clientDir, 'assets'));
  await writeFile(join(clientDir, 'index.html'), BUILD_INDEX_HTML);
  await writeFile(join(clientDir, 'assets', 'index-WQil5ICt.css'), CSS);
  t = await createTestApp(await openTestDatabase(), { closeDatabase: true, clientDir });
});
afterAll(async () => {
  await t?.close();
  if (clientDir) await rm(clientDir, { recursive: true, force: true });
});

const page = (url: string, ticket?: string) =>
  t.app.inject({ method: 'GET', url, cookies: ticket ? { [TICKET_COOKIE]: ticket } : {}, remoteAddress: '10.9.0.1' });

/** The first page a page carries, read as the client reads it; undefined when it has none. */
function carriedPage(html: string): Paged<Post> | undefined {
  const match = new RegExp(`<script id="${FIRST_FEED_PAGE_ELEMENT_ID}" type="application/json">([\\s\\S]*?)</script>`).exec(html);
  if (!match) return undefined;
  const envelope = JSON.parse(match[1]!) as { code: number; data: Paged<Post> };
  expect(envelope.code).toBe(0);
  return envelope.data;
}

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
  });

  it('keeps hostile text inside its data element: the page runs no more scripts than the build’s', async () => {
    const firstId = carriedPage((await page('/home')).body)!.list[0]!.id;
    await t.database.db.update(posts).set({ content: HOSTILE }).where(eq(posts.id, firstId));
    const html = (await page('/home')).body;
    expect(carriedPage(html)!.list.find((post) => post.id === firstId)?.content).toBe(HOSTILE);
    const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map((tag) => tag[0]);
    expect(scripts.filter((tag) => !/type="application\/json"/.test(tag))).toEqual([
      '<script type="module" crossorigin src="/assets/index-tF_XAYai.js">',
    ]);
    expect(html.match(/<\/script>/gi)).toHaveLength(scripts.length);
  });

  it('revalidates as a 304 while the feed is unchanged', async () => {
    const first = await page('/home');
    const again = await t.app.inject({ method: 'GET', url: '/home', headers: { 'if-none-match': String(first.headers.etag) }, remoteAddress: '10.9.0.1' });
    expect(again.statusCode).toBe(304);
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
      expect(html, url).not.toMatch(/<link[^>]*rel="stylesheet"/);
      expect(html, url).toContain(`<style>${CSS}</style>`);
    }
  });
});
