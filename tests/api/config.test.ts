/**
 * One configuration: the environment is parsed once (src/server/config.ts), and the client's
 * part is served with the page (src/server/http/client-page.ts), so a setting changes without a
 * rebuild, and an installed PWA notices because sw.js changes with it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CONFIG_ELEMENT_ID, DEFAULT_CLIENT_CONFIG, type ClientConfig } from '../../src/shared/client-config.ts';
import { LOGIN_CODE_RESEND_S } from '../../src/shared/constants.ts';
import { FIRST_READ_ATTRIBUTE } from '../../src/shared/first-screen.ts';
import { buildApp } from '../../src/server/app.ts';
import { databaseAddressOf, listeningUrl } from '../../src/server/boot.ts';
import { clientConfigOf, ConfigError, loadConfig, projectRoot } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { renderClient } from '../../src/server/http/client-page.ts';
import { openTestDatabase } from '../support/db.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('the start line', () => {
  it('names the address and port the server listens on', () => {
    expect(listeningUrl({ address: '127.0.0.1', family: 'IPv4', port: 3001 })).toBe('http://127.0.0.1:3001');
    expect(listeningUrl({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://0.0.0.0:3000 (every address of this host)');
    expect(listeningUrl({ address: '::', family: 'IPv6', port: 3000 })).toBe('http://[::]:3000 (every address of this host)');
    expect(listeningUrl({ address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080');
  });
});

describe('loadConfig', () => {
  it('fails on a bad PORT with a message naming PORT, never NaN', () => {
    for (const port of ['abc', '70000', '-1', '3000.5', '80abc']) {
      const error = configError({ PORT: port });
      expect(error.message).toMatch(/^Invalid configuration:/);
      expect(error.problems).toEqual([`PORT must be a whole number from 0 to 65535 (got "${port}")`]);
    }
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
  });

  it('stops start-up (src/server/main.ts) with the message and no stack trace', async () => {
    const started = promisify(execFile)(process.execPath, ['--import', 'tsx', join(projectRoot(), 'src/server/main.ts')], {
      env: { ...process.env, PORT: 'abc' },
      timeout: 20_000,
    });
    const failure = (await started.then(
      () => {
        throw new Error('the server started with PORT=abc');
      },
      (err: unknown) => err,
    )) as { code: number; stderr: string };
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('Invalid configuration:\n  - PORT must be a whole number from 0 to 65535 (got "abc")');
    expect(failure.stderr).not.toMatch(/\bat .*config\.ts/);
  });

  it('names every bad variable at once: flags, numbers, URLs, schemes, log levels', () => {
    const error = configError({
      SEED_DEMO_DATA: 'maybe',
      SECURE_COOKIES: 'yes please',
      TRUST_PROXY: 'maybe',
      LOGIN_CODE_RESEND_SECONDS: 'soon',
      LOGIN_CODES_PER_ADDRESS_PER_HOUR: '0',
      WRITE_LIMIT_PER_MINUTE: '0',
      DAILY_COMPLAINT_LIMIT: 'many',
      AUTO_HIDE_COMPLAINTS: '0',
      DAILY_POST_LIMIT: '-1',
      UPLOAD_MAX_BYTES: '10MB',
      UPLOAD_LIMIT_PER_MINUTE: '0',
      DAILY_UPLOAD_LIMIT: 'lots',
      REQUEST_LIMIT_PER_ADDRESS: '0',
      REQUEST_LIMIT_PER_USER: 'fast',
      COLLECT_BYTES_PER_ADDRESS_PER_HOUR: '10',
      FIRST_SCREEN_READ_WAIT_MS: '0',
      FIRST_SCREEN_RENDER_LIMIT_MS: 'quick',
      LEARNING_SITE_URL: 'time.geekbang.org',
      AI_ASSISTANT_URL: 'javascript:alert(1)',
      APP_SCHEME: 'geektime',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://root:secret@db/x',
      ANALYTICS_LOG_STORE: 'two words',
      ANALYTICS_COLLECTOR_URL: '//collect.example.com',
      WECHAT_JS_SDK_URL: 'res.wx.qq.com/open/js/jweixin-1.6.0.js',
    });
    const named = error.problems.map((problem) => problem.split(' ')[0]).sort();
    expect(named).toEqual(
      [
        'AI_ASSISTANT_URL',
        'ANALYTICS_COLLECTOR_URL',
        'ANALYTICS_LOG_STORE',
        'APP_SCHEME',
        'WECHAT_JS_SDK_URL',
        'DATABASE_URL',
        'LEARNING_SITE_URL',
        'LOGIN_CODE_RESEND_SECONDS',
        'LOGIN_CODES_PER_ADDRESS_PER_HOUR',
        'WRITE_LIMIT_PER_MINUTE',
        'DAILY_COMPLAINT_LIMIT',
        'AUTO_HIDE_COMPLAINTS',
        'DAILY_POST_LIMIT',
        'UPLOAD_MAX_BYTES',
        'UPLOAD_LIMIT_PER_MINUTE',
        'DAILY_UPLOAD_LIMIT',
        'REQUEST_LIMIT_PER_ADDRESS',
        'REQUEST_LIMIT_PER_USER',
        'COLLECT_BYTES_PER_ADDRESS_PER_HOUR',
        'FIRST_SCREEN_READ_WAIT_MS',
        'FIRST_SCREEN_RENDER_LIMIT_MS',
        'LOG_LEVEL',
        'SECURE_COOKIES',
        'SEED_DEMO_DATA',
        'TRUST_PROXY',
      ].sort(),
    );
    // A secret is named, never echoed.
    expect(error.message).not.toContain('secret');
  });

  it('keeps the documented defaults, and an empty variable means unset', () => {
    for (const env of [{}, { PORT: '', PROVIDER_NAME: '', SEED_DEMO_DATA: '', DATABASE_URL: '' }]) {
      const config = loadConfig(env);
      expect(config).toMatchObject({
        port: 3000,
        host: '0.0.0.0',
        databaseUrl: undefined,
        dataDir: join(projectRoot(), 'data'),
        clientDir: join(projectRoot(), 'dist/client'),
        seedDemoData: true,
        providerName: '极客时间',
        learningSiteUrl: 'https://time.geekbang.org',
        appScheme: 'geektime://',
        wechatAppId: 'wx0000000000000000',
        wechatJsapiTicket: 'demo-jsapi-ticket',
        analyticsAppId: 'community-feed',
        analyticsLogStore: 'community-feed-test',
        analyticsCollectorUrl: '/serv/collect',
        wechatJsSdkUrl: 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js',
        aiAssistantUrl: 'https://time.geekbang.org/ai',
        secureCookies: false,
        trustProxy: false,
        logLevel: 'info',
        loginCodeResendSeconds: LOGIN_CODE_RESEND_S,
        loginCodesPerAddressPerHour: 20,
        writeLimitPerMinute: 60,
        dailyComplaintLimit: 20,
        autoHideComplaints: 5,
        dailyPostLimit: 50,
        uploadMaxBytes: 10 * 1024 * 1024,
        uploadLimitPerMinute: 20,
        dailyUploadLimit: 200,
        requestLimitPerAddress: 1200,
        requestLimitPerUser: 600,
        collectBytesPerAddressPerHour: 2 * 1024 * 1024,
        firstScreenReadWaitMs: 400,
        firstScreenRenderLimitMs: 200,
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 120_000,
        keepAliveTimeoutMs: 72_000,
        maxConnectionsPerAddress: 256,
      });
      expect(clientConfigOf(config)).toEqual(DEFAULT_CLIENT_CONFIG);
    }
  });

  it('reads flags and values', () => {
    const config = loadConfig({
      SEED_DEMO_DATA: 'false',
      SECURE_COOKIES: 'TRUE',
      TRUST_PROXY: 'on',
      LEARNING_SITE_URL: 'https://learn.example.com/',
      DATABASE_URL: 'postgres://u@localhost:5432/db',
      LOG_LEVEL: 'warn',
      LOGIN_CODE_RESEND_SECONDS: '0',
      LOGIN_CODES_PER_ADDRESS_PER_HOUR: '500',
      WRITE_LIMIT_PER_MINUTE: '5',
      DAILY_COMPLAINT_LIMIT: '3',
      AUTO_HIDE_COMPLAINTS: '2',
      DAILY_POST_LIMIT: '7',
      UPLOAD_MAX_BYTES: '2097152',
      UPLOAD_LIMIT_PER_MINUTE: '4',
      DAILY_UPLOAD_LIMIT: '9',
      REQUEST_LIMIT_PER_ADDRESS: '300',
      REQUEST_LIMIT_PER_USER: '200',
      COLLECT_BYTES_PER_ADDRESS_PER_HOUR: '65536',
      FIRST_SCREEN_READ_WAIT_MS: '60000',
      FIRST_SCREEN_RENDER_LIMIT_MS: '30000',
    });
    expect(config).toMatchObject({
      seedDemoData: false,
      secureCookies: true,
      trustProxy: true,
      learningSiteUrl: 'https://learn.example.com',
      databaseUrl: 'postgres://u@localhost:5432/db',
      logLevel: 'warn',
      loginCodeResendSeconds: 0,
      loginCodesPerAddressPerHour: 500,
      writeLimitPerMinute: 5,
      dailyComplaintLimit: 3,
      autoHideComplaints: 2,
      dailyPostLimit: 7,
      uploadMaxBytes: 2 * 1024 * 1024,
      uploadLimitPerMinute: 4,
      dailyUploadLimit: 9,
      requestLimitPerAddress: 300,
      requestLimitPerUser: 200,
      collectBytesPerAddressPerHour: 65536,
      firstScreenReadWaitMs: 60_000,
      firstScreenRenderLimitMs: 30_000,
    });
  });

  it('reads DATABASE_POOL_SIZE (default 10) and refuses a pool that could not keep a connection for writes and one for reads', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '2' }).databasePoolSize).toBe(2);
    expect(loadConfig({ DATABASE_POOL_SIZE: ' 1000 ' }).databasePoolSize).toBe(1000);
    for (const size of ['0', '1', '1001', 'ten', '4.5', '-3']) {
      expect(configError({ DATABASE_POOL_SIZE: size }).problems).toEqual([`DATABASE_POOL_SIZE must be a whole number from 2 to 1000 (got "${size}")`]);
    }
  });

  it('takes a DATABASE_URL that names a Unix socket, in each of the forms pg reads', () => {
    for (const url of [
      'postgres:///community?host=/var/run/postgresql',
      'postgresql://community:secret@/community?host=/var/run/postgresql',
      'postgres://community@/community?host=/var/run/postgresql&port=5433',
      'postgres://community@%2Fvar%2Frun%2Fpostgresql/community',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl, url).toBe(url);
    }
    expect(configError({ DATABASE_URL: 'mysql://root@/x?host=/run/mysqld' }).problems).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL']);
  });

  it('names where a socket URL points, without its user or password', () => {
    expect(databaseAddressOf('postgres://community:secret@/community?host=/var/run/postgresql')).toBe('/var/run/postgresql:5432');
    expect(databaseAddressOf('postgres:///community?host=/tmp/pg&port=5433')).toBe('/tmp/pg:5433');
    expect(databaseAddressOf('postgres://community@%2Fvar%2Frun%2Fpostgresql/community')).toBe('/var/run/postgresql:5432');
    expect(databaseAddressOf('postgres://community:secret@db.internal:6432/community')).toBe('db.internal:6432');
  });
});

// ---------------------------------------------------------------------------------------------
// The page, the manifest and the service worker

/**
 * index.html as `vite build` writes it (see dist/client/index.html), made from the project's
 * index.html so that the page cannot drift from it: the entry module leaves the body for a hashed
 * asset and its stylesheet in the head, and vite-plugin-pwa links the manifest. The early-acts
 * script the build also adds (src/build/plugins.ts) is left out: it is not index.html's.
 */
const BUILD_INDEX_HTML = (() => {
  const source = readFileSync(join(projectRoot(), 'index.html'), 'utf8');
  const entry = /\s*<script type="module" src="\/src\/client\/app\/main\.tsx"><\/script>/;
  if (!entry.test(source) || !source.includes('</head>')) throw new Error('index.html: no entry module script or no </head>');
  return source
    .replace(entry, '')
    .replace(
      '</head>',
      `  <script type="module" crossorigin src="/assets/index-tF_XAYai.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-WQil5ICt.css">
  <link rel="manifest" href="/manifest.webmanifest"></head>`,
    );
})();

const INDEX_REVISION = 'b072e40b16d56bfc2c7ea0c11393fd3c';
const MANIFEST_REVISION = 'a1936d787d3a70c6d4969af8f034a0ff';

/** sw.js as vite-plugin-pwa (injectManifest) writes it: the precache list inlined in the code. */
const BUILD_SW = `try{self[\`workbox:core:7.4.0\`]&&_()}catch{}function rt(){F(new ue($e(\`/index.html\`),{denylist:nt}))}function it(){$(),tt([{"revision":"${INDEX_REVISION}","url":"index.html"},{"revision":null,"url":"assets/user.lazy-Bpuf5LWG.js"},{"revision":null,"url":"assets/index-tF_XAYai.js"},{"revision":"c5ff6fdf0e869a6cf4716a074afe8549","url":"apple-touch-icon.png"},{"revision":"3425d2ca592af5ec0320473b26abeaa5","url":"favicon.svg"},{"revision":"${MANIFEST_REVISION}","url":"manifest.webmanifest"}]),rt()}it();
`;

const BUILD_MANIFEST = JSON.stringify({
  name: '极客时间社区',
  short_name: '极客时间社区',
  description: '极客时间学习社区：动态、频道、话题与代码片段',
  start_url: '/home',
  display: 'standalone',
  icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
});

const HOSTILE = '</script><script>alert(1)</script><!--"\'&$&';

const configElement = new RegExp(`<script id="${CLIENT_CONFIG_ELEMENT_ID}" type="application/json">([\\s\\S]*?)</script>`);

function pageConfig(html: string): ClientConfig {
  const match = configElement.exec(html);
  if (!match) throw new Error('no config element in the page');
  return JSON.parse(match[1]!) as ClientConfig;
}

function revisionOf(sw: string, url: string): string | null | undefined {
  const manifest = /tt\((\[[\s\S]*?\])\)/.exec(sw)?.[1];
  const entries = JSON.parse(manifest ?? '[]') as { revision: string | null; url: string }[];
  return entries.find((entry) => entry.url === url)?.revision;
}

describe('the page, manifest and service worker carry the run-time config', () => {
  let clientDir: string;
  let database: Database;
  const apps: FastifyInstance[] = [];

  async function appWith(env: Record<string, string>) {
    const config = loadConfig({ CLIENT_DIR: clientDir, ...env });
    const app = await buildApp({ config, db: database.db });
    apps.push(app);
    const get = async (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
    return { config, app, get };
  }

  beforeAll(async () => {
    clientDir = await mkdtemp(join(tmpdir(), 'client-build-'));
    await writeFile(join(clientDir, 'index.html'), BUILD_INDEX_HTML);
    await writeFile(join(clientDir, 'sw.js'), BUILD_SW);
    await writeFile(join(clientDir, 'manifest.webmanifest'), BUILD_MANIFEST);
    await writeFile(join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    database = await openTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
    if (clientDir) await rm(clientDir, { recursive: true, force: true });
  });

  it('inlines the client config in every navigation and in /index.html, with the name in the head', async () => {
    const { config, get } = await appWith({
      PROVIDER_NAME: '学而时习',
      LEARNING_SITE_URL: 'https://learn.example.com',
      APP_SCHEME: 'xuexi://',
      AI_ASSISTANT_URL: 'https://ai.example.com/chat',
      ANALYTICS_APP_ID: 'feed-prod',
      ANALYTICS_LOG_STORE: 'feed_prod',
      ANALYTICS_COLLECTOR_URL: 'https://collect.example.com/serv/collect',
      WECHAT_APP_ID: 'wx1234567890abcdef',
      WECHAT_JS_SDK_URL: 'https://sdk.example.com/jweixin.js',
    });
    for (const url of ['/index.html', '/', '/home', '/message/detail/5?tab=1', '/follow']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      // A page carrying the reader's first read (/home's feed, a post: first-screen.test.ts) is private.
      expect(page.headers['cache-control'], url).toBe(url === '/index.html' || url === '/follow' ? 'no-cache' : 'private, no-cache');
      expect(pageConfig(page.body)).toEqual({
        providerName: '学而时习',
        learningSiteUrl: 'https://learn.example.com',
        appScheme: 'xuexi://',
        aiAssistantUrl: 'https://ai.example.com/chat',
        analyticsAppId: 'feed-prod',
        analyticsLogStore: 'feed_prod',
        analyticsCollectorUrl: 'https://collect.example.com/serv/collect',
        wechatAppId: 'wx1234567890abcdef',
        wechatJsSdkUrl: 'https://sdk.example.com/jweixin.js',
      });
      expect(pageConfig(page.body)).toEqual(clientConfigOf(config));
      expect(page.body).toContain('<title>学而时习</title>');
      expect(page.body).toContain('<meta name="description" content="学而时习社区：');
      expect(page.body).toContain('<meta name="apple-mobile-web-app-title" content="学而时习社区" />');
      expect(page.body).toContain('<noscript>请开启 JavaScript 以使用学而时习社区。</noscript>');
      expect(page.body).not.toContain('极客时间');
      // The rest of the build is untouched.
      expect(page.body).toContain('<script type="module" crossorigin src="/assets/index-tF_XAYai.js"></script>');
    }
    const page = await get('/index.html');
    expect((await get('/index.html', { 'if-none-match': String(page.headers.etag) })).statusCode).toBe(304);
    // API paths still answer the envelope, never the page.
    expect((await get('/serv/v1/nothing')).statusCode).toBe(404);
  });

  it('escapes a hostile provider name: it stays text and cannot leave the JSON or the tags', async () => {
    const { get } = await appWith({ PROVIDER_NAME: HOSTILE });
    const page = (await get('/message/detail/5')).body;
    expect(pageConfig(page).providerName).toBe(HOSTILE);
    expect(page).not.toContain('<script>alert(1)');
    // Exactly the build's module script, the config element and the post and its comments the page carries close a script.
    expect(page.match(/<\/script>/g)).toHaveLength(4);
    expect(page).toContain(`<script type="application/json" ${FIRST_READ_ATTRIBUTE}="postDetail">`);
    expect(page).toContain(`<script type="application/json" ${FIRST_READ_ATTRIBUTE}="commentList">`);
    expect(page).not.toContain('<!--');
    expect(page).toContain('<title>&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#60;!--&#34;&#39;&#38;$&#38;</title>');
    const manifest = (await get('/manifest.webmanifest')).json() as { name: string };
    expect(manifest.name).toBe(`${HOSTILE}社区`);
  });

  it('serves the manifest with the name from the run-time provider name', async () => {
    const { get } = await appWith({ PROVIDER_NAME: '学而时习' });
    const response = await get('/manifest.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(response.json()).toEqual({
      ...(JSON.parse(BUILD_MANIFEST) as object),
      name: '学而时习社区',
      short_name: '学而时习社区',
      description: '学而时习学习社区：动态、频道、话题与代码片段',
    });
  });

  it('changes the precache revision of index.html and the manifest in sw.js when the config changes', async () => {
    const a = await appWith({ PROVIDER_NAME: '甲' });
    const a2 = await appWith({ PROVIDER_NAME: '甲' });
    const b = await appWith({ PROVIDER_NAME: '乙' });
    const c = await appWith({ PROVIDER_NAME: '甲', AI_ASSISTANT_URL: 'https://ai.example.com' });
    const swA = (await a.get('/sw.js')).body;
    const swB = (await b.get('/sw.js')).body;
    const swC = (await c.get('/sw.js')).body;
    const response = await a.get('/sw.js');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');

    const revisionA = revisionOf(swA, 'index.html');
    expect(revisionA).toMatch(/^[0-9a-f]{32}$/);
    expect(revisionA).not.toBe(INDEX_REVISION);
    expect(revisionOf(swB, 'index.html')).not.toBe(revisionA);
    expect(revisionOf(swC, 'index.html')).not.toBe(revisionA);
    expect(revisionOf(swB, 'manifest.webmanifest')).not.toBe(revisionOf(swA, 'manifest.webmanifest'));
    // Same build and config, same bytes: no needless updates.
    expect((await a2.get('/sw.js')).body).toBe(swA);
    // Nothing else in the worker changes.
    const masked = (sw: string) => sw.replace(/"revision":"[0-9a-f]{32}","url":"(index\.html|manifest\.webmanifest)"/g, '"revision":"*","url":"$1"');
    expect(masked(swA)).toBe(masked(BUILD_SW));
    expect(masked(swB)).toBe(masked(BUILD_SW));
    // Other files are served from the build as before.
    expect((await a.get('/favicon.svg')).statusCode).toBe(200);
  });
});

describe('the real build', () => {
  const clientDir = join(projectRoot(), 'dist/client');
  const built = existsSync(join(clientDir, 'sw.js')) && existsSync(join(clientDir, 'index.html'));

  it.skipIf(!built)('has the precache entries the server revises (run npm run build first)', () => {
    const rendered = renderClient(
      {
        indexHtml: readFileSync(join(clientDir, 'index.html'), 'utf8'),
        manifest: readFileSync(join(clientDir, 'manifest.webmanifest'), 'utf8'),
        sw: readFileSync(join(clientDir, 'sw.js'), 'utf8'),
      },
      { ...DEFAULT_CLIENT_CONFIG, providerName: '乙' },
    );
    expect(rendered.unrevised).toEqual([]);
    expect(pageConfig(rendered.indexHtml).providerName).toBe('乙');
    expect(rendered.indexHtml).toContain('<title>乙</title>');
    expect(rendered.indexHtml).toContain('<noscript>请开启 JavaScript 以使用乙社区。</noscript>');
  });
});
