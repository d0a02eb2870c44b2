/**
 * Builds the real app on a test database and calls contract endpoints through inject(), so
 * API tests speak the same paths and payloads as the client.
 */
import type { Agent } from 'node:https';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { Endpoint } from '../../src/shared/api.ts';
import { api } from '../../src/shared/api.ts';
import { TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import type { Envelope } from '../../src/shared/envelope.ts';
import { buildApp } from '../../src/server/app.ts';
import type { CleanupTimes } from '../../src/server/services/once.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import type { Readiness } from '../../src/server/http/health.ts';
import type { CodeSender } from '../../src/server/services/login.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresTestDatabase, openTestDatabase } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The last login code sent to each phone. */
  codes: Map<string, string>;
  call<T = unknown>(endpoint: Endpoint, input: unknown, options?: CallOptions): Promise<CallResult<T>>;
  /**
   * Logs in as a browser (the ticket as the cookie), or with `app` as the mini-program and the
   * native app do (Device-Id sent with the login: the ticket in the answer, taken only as the
   * Ticket header with that Device-Id).
   */
  login(cellphone: string, deviceKind?: 'pc' | 'mobile', app?: { deviceId: string }): Promise<{ ticket: string; uid: number; deviceId: string }>;
  close(): Promise<void>;
}

export interface CallOptions {
  ticket?: string | undefined;
  /** Send the ticket as Ticket + Device-Id headers instead of the cookie. */
  asHeaders?: { deviceId: string };
  headers?: Record<string, string>;
  /** Cookies beside the ticket's. */
  cookies?: Record<string, string>;
  remoteAddress?: string;
  /** Raw body to send instead of JSON of input. */
  rawBody?: string;
}

export interface CallResult<T> {
  status: number;
  body: Envelope<T>;
  response: LightMyRequestResponse;
  /** data of a success; throws with the error envelope otherwise. */
  data(): T;
}

/** A test app on a fresh copy of the seeded PGlite database; close() closes both. */
export async function openTestApp(): Promise<TestApp> {
  return createTestApp(await openTestDatabase(), { closeDatabase: true });
}

/** A test app serving a built client of one bare index.html (pages, and the share target, then answered) on a fresh copy of the seeded PGlite; close() removes all. */
export async function openTestAppWithClient(): Promise<TestApp> {
  const clientDir = await mkdtemp(join(tmpdir(), 'client-'));
  await writeFile(join(clientDir, 'index.html'), '<!doctype html><html><head><title>app</title></head><body><div id="root"></div></body></html>');
  const t = await createTestApp(await openTestDatabase(), { closeDatabase: true, clientDir });
  return {
    ...t,
    close: async () => {
      await t.close();
      await rm(clientDir, { recursive: true, force: true });
    },
  };
}

export interface TestAppOptions {
  closeDatabase?: boolean;
  /** Environment the app's config is read from (defaults otherwise), e.g. { WRITE_LIMIT_PER_MINUTE: '3' }. */
  env?: Record<string, string>;
  /** Serve this built client (a folder with index.html) beside the API, as `npm start` does. */
  clientDir?: string;
  /** Runs on the app before it is ready: hooks a test adds (one that holds a request, say). */
  beforeReady?: (app: FastifyInstance) => void;
  /** The process phase /readyz tells (default: ready). */
  readiness?: Readiness;
  /** The HTTPS agent of Web Push sends (one trusting a test's push service). */
  pushAgent?: Agent;
  /** Where login codes go instead of the test's own record of them (a webhook that fails, say). */
  codeSender?: CodeSender;
  /** When the app deletes expired idempotency keys and rate-limit windows (default: the app's). */
  cleanup?: CleanupTimes;
}

export async function createTestApp(database: Database, options: TestAppOptions = {}): Promise<TestApp> {
  const codes = new Map<string, string>();
  const codeSender: CodeSender = {
    async send(cellphone, code) {
      codes.set(cellphone, code);
    },
  };
  const config = loadConfig({ ...options.env, ...(options.clientDir === undefined ? {} : { CLIENT_DIR: options.clientDir }) });
  const app = await buildApp({
    config,
    db: database.db,
    serveClient: options.clientDir !== undefined,
    codeSender: options.codeSender ?? codeSender,
    poolStats: database.poolStats,
    observeQueries: database.observeQueries,
    ...(options.readiness ? { readiness: options.readiness } : {}),
    ...(options.pushAgent ? { pushAgent: options.pushAgent } : {}),
    ...(options.cleanup ? { cleanup: options.cleanup } : {}),
  });
  options.beforeReady?.(app);
  await app.ready();
  // As boot.ts does once the database is migrated: the push key pair exists before any call.
  await app.push.publicKey();

  async function call<T>(endpoint: Endpoint, input: unknown, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const cookies: Record<string, string> = { ...options.cookies };
    if (options.ticket && options.asHeaders) {
      headers.ticket = options.ticket;
      headers['device-id'] = options.asHeaders.deviceId;
    } else if (options.ticket) {
      cookies[TICKET_COOKIE] = options.ticket;
    }
    const isGet = endpoint.method === 'GET';
    const response = await app.inject({
      method: endpoint.method,
      url: endpoint.path,
      headers: isGet ? headers : { 'content-type': 'application/json', ...headers },
      cookies,
      remoteAddress: options.remoteAddress ?? '127.0.0.1',
      ...(isGet
        ? { query: Object.fromEntries(Object.entries((input ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])) }
        : { payload: options.rawBody ?? JSON.stringify(input ?? {}) }),
    });
    const body = response.json() as Envelope<T>;
    return {
      status: response.statusCode,
      body,
      response,
      data() {
        if (body.code !== 0) throw new Error(`expected success from ${endpoint.path}, got ${JSON.stringify(body)}`);
        return body.data;
      },
    };
  }

  return {
    app,
    database,
    codes,
    call,
    async login(cellphone, deviceKind = 'pc', app) {
      await ageRateLimits(database, cellphone);
      await call(api.loginCode, { cellphone }, { remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
      const code = codes.get(cellphone);
      if (!code) throw new Error(`no code sent to ${cellphone}`);
      const result = await call<{ ticket?: string; uid: number; device_id: string }>(
        api.login,
        { cellphone, code, device_kind: deviceKind },
        app ? { headers: { 'device-id': app.deviceId } } : {},
      );
      const data = result.data();
      // A browser's login answers the ticket only as the cookie.
      const ticket = data.ticket ?? result.response.cookies.find((cookie) => cookie.name === TICKET_COOKIE)?.value;
      if (!ticket) throw new Error(`no ticket from the login of ${cellphone}`);
      return { ticket, uid: data.uid, deviceId: data.device_id };
    },
    async close() {
      await app.close();
      if (options.closeDatabase) await database.close();
    },
  };
}

/** Moves a phone's resend window into the past, so a test may ask for a new code at once. */
export async function ageRateLimits(database: Database, cellphone: string): Promise<void> {
  await database.db
    .update(rateLimits)
    .set({ windowStart: sql`${rateLimits.windowStart} - interval '1 hour'` })
    .where(eq(rateLimits.key, `login-code:phone:${cellphone}`));
}

/** The error part of an envelope, for assertions. */
export function errorOf(body: Envelope<unknown>): { code: number; msg: string } | undefined {
  return body.code === 0 ? undefined : body.error;
}

/**
 * Both engines: the embedded default and a real PostgreSQL. The files where the engines can
 * differ run on both: prepared statements, posts as JSON text, reads' numbers, login races,
 * migrations, EXPLAIN and the fuzzers.
 */
export const testDatabases = [
  { name: 'PGlite', open: async () => ({ database: await openTestDatabase(), stop: async () => undefined }) },
  { name: 'PostgreSQL', open: openPostgresTestDatabase },
];

/**
 * The engine an API behaviour (a rule of a call, its answers and errors) is checked on: the
 * same SQL runs on both, and the files above hold the engines to the same answers. PostgreSQL:
 * it works in processes of its own beside the tests, and a copy of its template opens at once
 * (the e2e tests run the app on PGlite, its default).
 */
export const behaviourDatabases = [testDatabases[1]!];

/**
 * Inside a describe block: the app on a database opened by `open` before the block's tests and
 * closed after them. Read `t` and `database` inside tests (they exist once beforeAll ran).
 */
export function testAppFor(
  open: () => Promise<{ database: Database; stop(): Promise<void> }>,
  env?: Record<string, string>,
  /** Made when the app is (in beforeAll): the rest of the app's options. */
  options?: () => Omit<TestAppOptions, 'env'>,
): { readonly t: TestApp; readonly database: Database } {
  let t: TestApp | undefined;
  let opened: { database: Database; stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    opened = await open();
    t = await createTestApp(opened.database, { ...options?.(), ...(env ? { env } : {}) });
  });
  afterAll(async () => {
    await t?.close();
    await opened?.database.close();
    await opened?.stop();
  });
  return {
    get t() {
      if (!t) throw new Error('testAppFor: the app exists only inside tests');
      return t;
    },
    get database() {
      if (!opened) throw new Error('testAppFor: the database exists only inside tests');
      return opened.database;
    },
  };
}

/** A source of unused mainland phone numbers with a fixed 7-digit prefix (one per test file). */
export function phoneSource(prefix: string): () => string {
  if (!/^1\d{6}$/.test(prefix)) throw new Error(`phoneSource: prefix must be 7 digits starting with 1 (got ${prefix})`);
  let n = 0;
  return () => `${prefix}${String(++n).padStart(4, '0')}`;
}

/** The error code of an answer (undefined on success). */
export function codeOf(result: CallResult<unknown>): number | undefined {
  return errorOf(result.body)?.code;
}

/** A message a user of the platform can read: Chinese, and none of zod's English. */
export function isChineseMessage(msg: string | undefined): boolean {
  return !!msg && /[\u4e00-\u9fff]/.test(msg) && !/invalid|expected|received|required|too (big|small)/i.test(msg);
}

/** A client_id unique within the run. */
let clientIds = 0;
export function newClientId(tag = 'test'): string {
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${++clientIds}`;
}

/**
 * What is wrong with `data` as the answer of `endpoint`, or null: its output schema must take it
 * and leave it unchanged (zod leaves out what it does not name, so equal after parsing means no
 * field it does not name). Answers written as JSON text (src/server/services/json-text.ts) are never
 * checked by the server on the way out.
 */
export function schemaProblem(endpoint: Endpoint, data: unknown): string | null {
  const parsed = (endpoint.output as z.ZodType).safeParse(data);
  if (!parsed.success) return `answer breaks its schema: ${parsed.error.message.slice(0, 300)}`;
  if (!isDeepStrictEqual(parsed.data, data)) return 'answer has fields its schema does not name';
  return null;
}
