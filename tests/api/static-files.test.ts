/**
 * Files and pages of the built client (src/server/http/static-client.ts): a
 * file that is there is served; a missing file (anything under /assets, /icons or /screenshots,
 * any path whose last segment has an extension) is a real 404, never the app shell; every other
 * path is a page of the app and gets index.html (history-mode routing); a share to the installed
 * app (/share-target, GET or POST) is sent on to the composer over /home with what was shared.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '#shared/errors.ts';
import { isFilePath, shareTargetLocation } from '#shared/static-paths.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { openTestDatabase } from '../support/db.ts';

const INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head><title>极客时间</title><script type="module" crossorigin src="/assets/index-abc.js"></script></head>
  <body><div id="root"></div></body>
</html>
`;
const SHELL_MARK = '<div id="root">';

/** Paths of the app, each a page (the router decides what it shows). */
const PAGES = [
  '/',
  '/home',
  '/follow?channelId=3',
  '/topic/list',
  '/usercenter/3F2A9C01D4E5B6',
  '/message/detail/5?tab=1',
  '/code/12/0b6e0c1c-5a43-4d1e-9f27-3c2d51d3a001',
  '/topic/list?from=https%3A%2F%2Fexample.com%2Fa%2Fpage.html',
  '/no/such/page',
];

/** Files that are not in the build. */
const MISSING_FILES = [
  '/assets/index-missing.js',
  '/assets/missing',
  '/icons/icon-999.png',
  '/screenshots/none.webp',
  '/favicon-x.png',
  '/robots2.txt',
  '/deep/folder/style.css',
  '/assets/index-missing.js?v=2',
];

describe('static files of the client', () => {
  let clientDir: string;
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    clientDir = await mkdtemp(join(tmpdir(), 'client-static-'));
    await writeFile(join(clientDir, 'index.html'), INDEX_HTML);
    await writeFile(join(clientDir, 'manifest.webmanifest'), JSON.stringify({ name: 'x' }));
    await writeFile(join(clientDir, 'robots.txt'), 'User-agent: *\n');
    await mkdir(join(clientDir, 'assets'));
    await writeFile(join(clientDir, 'assets', 'index-abc.js'), 'console.log(1);\n');
    database = await openTestDatabase();
    app = await buildApp({ config: loadConfig({ CLIENT_DIR: clientDir }), db: database.db });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (clientDir) await rm(clientDir, { recursive: true, force: true });
  });

  it('serves the files that are there', async () => {
    for (const url of ['/assets/index-abc.js', '/robots.txt', '/manifest.webmanifest']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain(SHELL_MARK);
    }
  });

  it('answers a missing file with a 404 (GET and HEAD), never the app shell', async () => {
    for (const url of MISSING_FILES) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.headers['content-type'], `${method} ${url}`).not.toContain('text/html');
        if (method === 'GET') {
          expect(response.json(), url).toEqual({
            code: -1,
            error: { code: ErrorCode.NotFound, msg: `文件不存在：GET ${url.split('?')[0]}` },
          });
        }
      }
    }
  });

  it('answers every page of the app with the shell', async () => {
    for (const url of PAGES) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.body, url).toContain(SHELL_MARK);
    }
  });

  it('sends a share on to the composer over /home, with the shared title, text and link only', async () => {
    const query = new URLSearchParams({ title: '标题', text: 'a.b 文字', url: 'https://example.com/a/page.html', other: 'x' });
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url: `/share-target?${query}` });
      expect(response.statusCode, method).toBe(303);
      const location = new URL(String(response.headers.location), 'http://app.test');
      expect(location.pathname).toBe('/home');
      expect(Object.fromEntries(location.searchParams)).toEqual({
        compose: '1',
        title: '标题',
        text: 'a.b 文字',
        url: 'https://example.com/a/page.html',
      });
    }
    expect(shareTargetLocation('')).toBe('/home?compose=1');
  });

  it('sends a share POSTed without the service worker on to the composer with its text, passing its pictures over', async () => {
    const boundary = 'share-boundary';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body =
      part('title', '标题') +
      part('text', '分享的文字') +
      part('other', 'x') +
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${'x'.repeat(5000)}\r\n` +
      `--${boundary}--\r\n`;
    const response = await app.inject({
      method: 'POST',
      url: '/share-target',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'sec-fetch-site': 'none' },
      payload: body,
    });
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location), 'http://app.test');
    expect(location.pathname).toBe('/home');
    expect(Object.fromEntries(location.searchParams)).toEqual({ compose: '1', title: '标题', text: '分享的文字' });
    // A share that is no form still opens the composer.
    const empty = await app.inject({ method: 'POST', url: '/share-target', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: 'garbage' });
    expect(empty.statusCode).toBe(303);
    expect(empty.headers.location).toBe('/home?compose=1');
  });

  it('keeps unknown API calls a 404 envelope', async () => {
    const response = await app.inject({ method: 'GET', url: '/serv/v1/no_such_call' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: -1, error: { code: ErrorCode.NotFound, msg: '接口不存在：GET /serv/v1/no_such_call' } });
  });
});

describe('isFilePath (shared by the server and the service worker)', () => {
  it('tells files from pages, reading the path with its query', () => {
    for (const path of MISSING_FILES) expect(isFilePath(path), path).toBe(true);
    for (const path of PAGES) expect(isFilePath(path), path).toBe(false);
  });
});
