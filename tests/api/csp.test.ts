/**
 * The page is served with a Content-Security-Policy (src/server/http/client-page.ts): scripts only
 * from this origin's files and the page's own inline script by its hash, no other inline script,
 * no eval, no plugins; every navigation (the history fallback too) and /index.html carry it, and
 * the page it guards runs nothing inline but that script.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../src/shared/client-config.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, projectRoot } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { contentSecurityPolicy, inlineScriptsOf, renderClient } from '../../src/server/http/client-page.ts';
import { openTestDatabase } from '../support/db.ts';

/** The page's first script, inline as the build writes it (src/client/lib/early-acts-catcher.ts). */
const CATCHER = '(()=>{window.earlyActs={}})();';
const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The policy as the brief states it, directive by directive. */
const EXPECTED: Record<string, string[]> = {
  'default-src': ["'self'"],
  // The page's own inline script by its hash; the WeChat JS-SDK (loaded only inside WeChat) from its configured origin.
  'script-src': ["'self'", hashOf(CATCHER), 'https://res.wx.qq.com'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'frame-ancestors': ["'self'"],
  'form-action': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
};

function directives(policy: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(out[name], `${name} twice`).toBeUndefined();
    out[name.toLowerCase()] = values;
  }
  return out;
}

/** The page as `vite build` writes it, with the inline <style> the build adds. */
const BUILD_INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8" />
    <title>极客时间</title>
    <style>html,body{margin:0}</style>
    <script type="module" crossorigin src="/assets/index-tF_XAYai.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-WQil5ICt.css">
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <script data-early-acts>${CATCHER}</script>
    <noscript>请开启 JavaScript 以使用极客时间社区。</noscript>
    <div id="root"></div>
  </body>
</html>
`;

const BUILD_SW = `tt([{"revision":"a","url":"index.html"},{"revision":"b","url":"manifest.webmanifest"}]);`;

describe('Content-Security-Policy', () => {
  let clientDir: string;
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    clientDir = await mkdtemp(join(tmpdir(), 'client-csp-'));
    await writeFile(join(clientDir, 'index.html'), BUILD_INDEX_HTML);
    await writeFile(join(clientDir, 'sw.js'), BUILD_SW);
    await writeFile(join(clientDir, 'manifest.webmanifest'), JSON.stringify({ name: 'x' }));
    await writeFile(join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    database = await openTestDatabase();
    app = await buildApp({ config: loadConfig({ CLIENT_DIR: clientDir }), db: database.db });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (clientDir) await rm(clientDir, { recursive: true, force: true });
  });

  it('guards every page the server serves: /index.html and each history-mode navigation', async () => {
    for (const url of ['/index.html', '/', '/home', '/message/detail/5?tab=1', '/message/detail/poster/5', '/no/such/page']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(directives(String(page.headers['content-security-policy'])), url).toEqual(EXPECTED);
    }
  });

  it('keeps it on a revalidation (304) and a HEAD', async () => {
    const page = await app.inject({ method: 'GET', url: '/home' });
    const again = await app.inject({ method: 'GET', url: '/home', headers: { 'if-none-match': String(page.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    const head = await app.inject({ method: 'HEAD', url: '/home' });
    expect(head.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  });

  it('never allows inline scripts, eval or plugins', async () => {
    const policy = directives(String((await app.inject({ method: 'GET', url: '/home' })).headers['content-security-policy']));
    for (const name of ['script-src', 'default-src']) {
      expect(policy[name]).not.toContain("'unsafe-inline'");
      expect(policy[name]).not.toContain("'unsafe-eval'");
      expect(policy[name]).not.toContain('data:');
      expect(policy[name]).not.toContain('https:');
      expect(policy[name]).not.toContain('*');
    }
    expect(policy['object-src']).toEqual(["'none'"]);
  });

  it("allows the configured WeChat JS-SDK's origin to run and another collector's origin to be called, nothing more", () => {
    const policy = directives(
      contentSecurityPolicy({
        wechatJsSdkUrl: 'https://sdk.example.com/open/js/jweixin.js?v=2',
        analyticsCollectorUrl: 'https://collect.example.com/serv/collect',
      }),
    );
    expect(policy['script-src']).toEqual(["'self'", 'https://sdk.example.com']);
    // The page's inline scripts, each by its hash.
    expect(directives(contentSecurityPolicy(DEFAULT_CLIENT_CONFIG, ['a()', 'b()']))['script-src']).toEqual(["'self'", hashOf('a()'), hashOf('b()'), 'https://res.wx.qq.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://collect.example.com']);
    // A collector on this server adds nothing.
    expect(directives(contentSecurityPolicy(DEFAULT_CLIENT_CONFIG))['connect-src']).toEqual(["'self'"]);
  });

  it('is not put on the service worker, the manifest, assets or API answers', async () => {
    // A policy on sw.js would bind the worker's own fetches (connect-src) instead of the page's.
    for (const url of ['/sw.js', '/manifest.webmanifest', '/favicon.svg', `/serv/v1/user/auth?t=${Date.now()}`]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).toBeUndefined();
    }
  });
});

describe('the page the policy guards', () => {
  const clientDir = join(projectRoot(), 'dist/client');
  const built = existsSync(join(clientDir, 'index.html'));

  it.skipIf(!built)('runs one inline script, the first, which keeps early taps: every other <script> is a same-origin file or JSON data (run npm run build first)', () => {
    const { indexHtml } = renderClient({ indexHtml: readFileSync(join(clientDir, 'index.html'), 'utf8') }, DEFAULT_CLIENT_CONFIG);
    const scripts = [...indexHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    const inline: string[] = [];
    for (const [, attributes = '', body = ''] of scripts) {
      const src = /\bsrc="([^"]*)"/.exec(attributes)?.[1];
      if (src !== undefined) {
        expect(src).toMatch(/^\/(?!\/)/);
        expect(body.trim()).toBe('');
      } else if (!/\btype="application\/json"/.test(attributes)) {
        expect(attributes.trim()).toBe('data-early-acts');
        inline.push(body);
      }
    }
    expect(inline).toHaveLength(1);
    expect(inline[0]).toContain('earlyActs');
    expect(inlineScriptsOf(indexHtml)).toEqual(inline);
    expect(indexHtml.indexOf('data-early-acts')).toBeLessThan(indexHtml.indexOf('<div id="root">'));
    expect(indexHtml).not.toMatch(/\son[a-z]+\s*=/i);
  });
});
