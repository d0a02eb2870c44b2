/**
 * Probes (src/server/http/health.ts): /healthz says the process is alive, /readyz whether it may
 * be sent requests (started, not stopping, its database answering `select 1` in time); both
 * answer the envelope, never the page, and every other path under /serv, /healthz, /readyz and
 * /metrics is a 404 envelope. While the process starts, other requests wait for it. A stop
 * (src/server/boot.ts) answers /readyz 503 first, still serves while it drains, answers the
 * requests in flight, and closes the database last. Real databases throughout: PGlite, and a
 * PostgreSQL of this file's own that it stops.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { buildApp } from '../../src/server/app.ts';
import { stopGracefully } from '../../src/server/boot.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { FIRST_READ_ATTRIBUTE } from '../../src/shared/first-screen.ts';
import { Readiness, READY_QUERY_TIMEOUT_MS, STARTING_HOLD_MS } from '../../src/server/http/health.ts';
import { createTestApp, isChineseMessage, type TestApp } from '../support/api.ts';
import { migrationsFolder, openTestDatabase, startPostgres, type PostgresServer } from '../support/db.ts';
import { removeServerBundle, startServerProcess } from '../support/server-process.ts';

interface Answer {
  status: number;
  type: string;
  body: { code: number; data?: Record<string, unknown>; error?: { code: number; msg: string } };
}

function answerOf(response: LightMyRequestResponse): Answer {
  return { status: response.statusCode, type: String(response.headers['content-type']), body: response.json() as Answer['body'] };
}

async function fetchAnswer(url: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: (await response.json()) as Answer['body'] };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const SHELL = '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('probes beside the page', () => {
  let clientDir: string;
  let database: Database;
  let t: TestApp;

  beforeAll(async () => {
    // A built client, so that any GET no route answers would get the page (history-mode routing).
    clientDir = await mkdtemp(join(tmpdir(), 'client-health-'));
    await writeFile(join(clientDir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
    database = await openTestDatabase();
    t = await createTestApp(database, { clientDir });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    if (clientDir) await rm(clientDir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz 200 with the envelope', async () => {
    expect(answerOf(await t.app.inject({ method: 'GET', url: '/healthz' }))).toEqual({
      status: 200,
      type: JSON_TYPE,
      body: { code: 0, data: { status: 'alive', phase: 'ready' } },
    });
    expect(answerOf(await t.app.inject({ method: 'GET', url: '/readyz?from=probe' }))).toEqual({
      status: 200,
      type: JSON_TYPE,
      body: { code: 0, data: { status: 'ready' } },
    });
    expect((await t.app.inject({ method: 'HEAD', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers every other path under /serv, /healthz, /readyz and /metrics 404 with the envelope, never the page', async () => {
    // The page still answers the app's own paths.
    expect((await t.app.inject({ method: 'GET', url: '/home' })).headers['content-type']).toBe('text/html; charset=utf-8');
    const paths = ['/serv', '/serv?x=1', '/serv/', '/serv/v9/nothing', '/healthz/', '/healthz/deep', '/readyz/', '/readyz/x?y=1', '/metrics', '/metrics/', '/metrics/x'];
    for (const method of ['GET', 'HEAD', 'POST'] as const) {
      for (const url of paths) {
        const response = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.headers['content-type'], `${method} ${url}`).toBe(JSON_TYPE);
        if (method === 'HEAD') continue;
        const body = response.json() as Answer['body'];
        expect(body.code, `${method} ${url}`).toBe(-1);
        expect(body.error?.code, `${method} ${url}`).toBe(ErrorCode.NotFound);
        expect(body.error?.msg, `${method} ${url}`).toBe(`接口不存在：${method} ${url.split('?')[0]}`);
      }
    }
    // A probe's path with another method names no call either.
    const posted = answerOf(await t.app.inject({ method: 'POST', url: '/healthz', payload: {} }));
    expect(posted.status).toBe(404);
    expect(posted.body.error?.code).toBe(ErrorCode.NotFound);
  });

  it('answers /readyz 503 once the database is closed, while /healthz stays 200', async () => {
    const own = await openTestDatabase();
    const app = await createTestApp(own);
    try {
      expect((await app.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await own.close();
      const ready = answerOf(await app.app.inject({ method: 'GET', url: '/readyz' }));
      expect(ready).toEqual({ status: 503, type: JSON_TYPE, body: { code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：数据库无法访问' } } });
      expect((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('readiness on a PostgreSQL that stalls and stops', () => {
  let postgres: PostgresServer;
  let database: Database;
  let t: TestApp;

  beforeAll(async () => {
    postgres = await startPostgres();
    // One connection: a long query holds it, so the readiness query waits for it.
    database = await openDatabase({ databaseUrl: postgres.url, migrationsFolder, poolSize: 1, onIdleConnectionError: () => undefined });
    t = await createTestApp(database);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.close().catch(() => undefined);
    await postgres?.stop();
  });

  it('answers 503 when the database does not answer within the timeout', async () => {
    expect(answerOf(await t.app.inject({ method: 'GET', url: '/readyz' })).status).toBe(200);
    // Drizzle runs a query once it is awaited: then() starts it; it takes the one connection at once.
    const stall = database.db.execute(sql`select pg_sleep(3)`).then(() => undefined);
    await wait(200);
    const asked = Date.now();
    const ready = answerOf(await t.app.inject({ method: 'GET', url: '/readyz' }));
    const took = Date.now() - asked;
    expect(ready).toEqual({ status: 503, type: JSON_TYPE, body: { code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：数据库响应超时' } } });
    // Answered at the timeout, not when the stalled query let go.
    expect(took).toBeGreaterThanOrEqual(READY_QUERY_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(2_500);
    await stall;
    expect(answerOf(await t.app.inject({ method: 'GET', url: '/readyz' })).status).toBe(200);
  });

  it('answers 503 once the server is gone', async () => {
    await postgres.stop();
    const ready = answerOf(await t.app.inject({ method: 'GET', url: '/readyz' }));
    expect(ready).toEqual({ status: 503, type: JSON_TYPE, body: { code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：数据库无法访问' } } });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('while the process starts', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('answers /readyz 503 for each phase and holds other requests until ready', async () => {
    const readiness = new Readiness('starting');
    const t = await createTestApp(database, { readiness });
    try {
      const notReady = async () => answerOf(await t.app.inject({ method: 'GET', url: '/readyz' }));
      expect(await notReady()).toEqual({ status: 503, type: JSON_TYPE, body: { code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：正在连接数据库' } } });
      expect(answerOf(await t.app.inject({ method: 'GET', url: '/healthz' })).body).toEqual({ code: 0, data: { status: 'alive', phase: 'starting' } });

      let answered = false;
      const held = t.call(api.complainReasons, {}).then((result) => {
        answered = true;
        return result;
      });
      await wait(200);
      expect(answered).toBe(false);
      readiness.enter('migrating');
      expect((await notReady()).body.error?.msg).toBe('服务未就绪：正在更新数据库');
      await wait(100);
      expect(answered).toBe(false);
      readiness.enter('ready');
      const result = await held;
      expect(result.status).toBe(200);
      expect(result.body.code).toBe(0);
      expect((await notReady()).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('while the demo is seeded answers /healthz and pages (the shell, without its first screen) at once, /readyz 503, and holds API calls until the seed ends', async () => {
    const clientDir = await mkdtemp(join(tmpdir(), 'client-seeding-'));
    await writeFile(join(clientDir, 'index.html'), SHELL);
    const readiness = new Readiness('migrating');
    const t = await createTestApp(database, { readiness, clientDir });
    try {
      readiness.enter('seeding');
      expect(answerOf(await t.app.inject({ method: 'GET', url: '/healthz' })).body).toEqual({ code: 0, data: { status: 'alive', phase: 'seeding' } });
      expect(answerOf(await t.app.inject({ method: 'GET', url: '/readyz' }))).toEqual({
        status: 503,
        type: JSON_TYPE,
        body: { code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：正在写入演示数据' } },
      });
      let answered = false;
      const held = t.call(api.postDetail, { post_id: 21 }).then((result) => {
        answered = true;
        return result;
      });
      const asked = Date.now();
      const page = await t.app.inject({ method: 'GET', url: '/home' });
      expect(Date.now() - asked).toBeLessThan(STARTING_HOLD_MS / 4);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<div id="root"></div>');
      // Its first screen's reads would wait for the seed: the page goes without them.
      expect(page.body).not.toContain(FIRST_READ_ATTRIBUTE);
      await wait(200);
      expect(answered).toBe(false);

      readiness.enter('ready');
      const result = await held;
      expect(result.status).toBe(200);
      expect(result.body.code).toBe(0);
      // Ready, the page carries its first screen again.
      expect((await t.app.inject({ method: 'GET', url: '/home' })).body).toContain(FIRST_READ_ATTRIBUTE);
    } finally {
      await t.close();
      await rm(clientDir, { recursive: true, force: true });
    }
  });

  it('holds pages too before the tables are there (connecting, migrating)', async () => {
    const clientDir = await mkdtemp(join(tmpdir(), 'client-migrating-'));
    await writeFile(join(clientDir, 'index.html'), SHELL);
    const readiness = new Readiness('migrating');
    const t = await createTestApp(database, { readiness, clientDir });
    try {
      let answered = false;
      const held = t.app.inject({ method: 'GET', url: '/home' }).then((response) => {
        answered = true;
        return response;
      });
      await wait(200);
      expect(answered).toBe(false);
      readiness.enter('ready');
      expect((await held).statusCode).toBe(200);
    } finally {
      await t.close();
      await rm(clientDir, { recursive: true, force: true });
    }
  });

  it('answers a held request 503 with Retry-After when the process stops before it was ready', async () => {
    const readiness = new Readiness('starting');
    const t = await createTestApp(database, { readiness });
    try {
      const held = t.call(api.complainReasons, {});
      await wait(100);
      readiness.enter('stopping');
      const result = await held;
      expect(result.status).toBe(503);
      expect(result.response.headers['retry-after']).toBe('1');
      expect(result.body).toEqual({ code: -1, error: { code: ErrorCode.Internal, msg: '服务正在停止，请稍后重试' } });
      expect(isChineseMessage((await t.app.inject({ method: 'GET', url: '/readyz' })).json<Answer['body']>().error?.msg)).toBe(true);
      // Stopping is for good.
      readiness.enter('ready');
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});

describe('a graceful stop', () => {
  it('answers /readyz 503 first, serves while it drains, answers the request in flight, then closes the database', async () => {
    const database = await openTestDatabase();
    const readiness = new Readiness('ready');
    const app: FastifyInstance = await buildApp({ config: loadConfig({}), db: database.db, serveClient: false, readiness });
    // A request marked so waits until the stop has begun closing the server: it reads the
    // database only then, and is answered only if the database is still open.
    let heldArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
    let releaseHeld!: () => void;
    const released = new Promise<void>((resolve) => (releaseHeld = resolve));
    app.addHook('onRequest', async (request) => {
      if (request.headers['x-test-hold'] !== '1') return;
      heldArrived();
      await released;
    });
    app.addHook('preClose', async () => releaseHeld());
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = (headers: Record<string, string> = {}) =>
      fetchAnswer(`${base}${api.postDetail.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ post_id: 21 }),
      });
    try {
      expect((await fetchAnswer(`${base}/readyz`)).status).toBe(200);
      const inFlight = post({ 'x-test-hold': '1' });
      await arrived;

      const stopAsked = Date.now();
      const stopped = stopGracefully({ app, database, readiness, drainMs: 1_000 });
      expect(await fetchAnswer(`${base}/readyz`)).toEqual({
        status: 503,
        type: JSON_TYPE,
        body: { code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：正在停止' } },
      });
      // Still serving while the balancers take it out.
      expect((await fetchAnswer(`${base}/healthz`)).body).toEqual({ code: 0, data: { status: 'alive', phase: 'stopping' } });
      const during = await post();
      expect(during.status).toBe(200);
      expect(during.body.code).toBe(0);

      await stopped;
      // No kept-alive connection holds the stop until its idle timeout (KEEP_ALIVE_TIMEOUT_MS, 72 s).
      expect(Date.now() - stopAsked).toBeLessThan(20_000);
      const held = await inFlight;
      expect(held.status).toBe(200);
      expect(held.body.code).toBe(0);
      await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      releaseHeld();
      if (readiness.phase !== 'stopping') await app.close();
      await database.close().catch(() => undefined);
    }
  });
});

describe('the server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'health-process-'));
  });
  afterAll(async () => {
    await removeServerBundle();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM answers /readyz 503 while it drains, exits 0, and leaves its PGlite folder closed', async () => {
    const server = await startServerProcess({ env: { DATABASE_URL: '', DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: '2000' } });
    try {
      expect((await fetchAnswer(`${server.url}/readyz`)).status).toBe(200);
      server.child.kill('SIGTERM');
      let ready: Answer | undefined;
      for (let i = 0; i < 50 && ready?.status !== 503; i++) {
        ready = await fetchAnswer(`${server.url}/readyz`);
        if (ready.status !== 503) await wait(20);
      }
      expect(ready?.body).toEqual({ code: -1, error: { code: ErrorCode.Internal, msg: '服务未就绪：正在停止' } });
      expect((await fetchAnswer(`${server.url}/healthz`)).status).toBe(200);
      expect(await server.exited).toEqual({ code: 0, signal: null });
    } finally {
      await server.kill();
    }
    expect(server.output()).toContain('shutting down: /readyz answers 503');
    // The folder's lock is released and PGlite closed: another process may open it.
    const again = await openDatabase({ dataDir, migrationsFolder });
    await again.close();
  }, 120_000);
});
