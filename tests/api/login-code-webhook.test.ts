/**
 * Login codes through a real channel (src/server/services/code-senders.ts): with
 * LOGIN_CODE_WEBHOOK_URL set, each code is POSTed as JSON {phone, code, expiresAt} to an HTTP
 * receiver (one this file starts on loopback), signed with HMAC-SHA256 over the body; the code
 * received logs the user in; a receiver that fails, refuses or never answers is answered to the
 * user as -1013 验证码发送失败 (after a few tries, each with its timeout), never an HTTP 500, and
 * the phone may ask again at once. No log line ever carries a code. Without the webhook, codes go
 * to the log, and the start says so.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { buildApp } from '../../src/server/app.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { WEBHOOK_ATTEMPTS } from '../../src/server/services/code-senders.ts';
import { phoneSource } from '../support/api.ts';
import { openTestDatabase } from '../support/db.ts';

const SECRET = 'test-webhook-secret';
const nextPhone = phoneSource('1583408');

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers: as a gateway that took the message, one that is down, one that refuses it, one that never answers. */
type Mode = 'ok' | 'fail' | 'refuse' | 'hang';

let receiver: Server;
let receiverUrl: string;
let mode: Mode = 'ok';
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      if (mode === 'ok') response.writeHead(200, { 'content-type': 'application/json' }).end('{"sent":true}');
      else if (mode === 'fail') response.writeHead(502).end('gateway down');
      else if (mode === 'refuse') response.writeHead(400).end('bad phone');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sms/login-code`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

interface LoggedApp {
  app: FastifyInstance;
  lines: string[];
  requestCode(cellphone: string): Promise<{ status: number; body: { code: number; data?: unknown; error?: { code: number; msg: string } } }>;
}

async function appWith(database: Database, env: Record<string, string>): Promise<LoggedApp> {
  const lines: string[] = [];
  const app = await buildApp({
    config: loadConfig(env),
    db: database.db,
    serveClient: false,
    // Every line at every level: none may carry a code.
    logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
  });
  await app.ready();
  return {
    app,
    lines,
    async requestCode(cellphone) {
      const response = await app.inject({
        method: 'POST',
        url: api.loginCode.path,
        payload: { cellphone },
        remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      });
      return { status: response.statusCode, body: response.json() };
    },
  };
}

/** Whether any line shows the code as a number of its own (not inside a longer one, such as a timestamp). */
const logsCode = (lines: string[], code: string) => lines.some((line) => new RegExp(`(?<!\\d)${code}(?!\\d)`).test(line));

describe('login codes through the webhook', () => {
  let database: Database;
  let t: LoggedApp;
  beforeAll(async () => {
    database = await openTestDatabase();
    t = await appWith(database, { LOGIN_CODE_WEBHOOK_URL: receiverUrl, LOGIN_CODE_WEBHOOK_SECRET: SECRET, LOGIN_CODE_WEBHOOK_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });
  beforeEach(() => {
    mode = 'ok';
    received.length = 0;
  });

  it('posts {phone, code, expiresAt}, signed over the body; the code received logs the user in; no log line has it', async () => {
    const cellphone = nextPhone();
    const asked = Date.now();
    const answer = await t.requestCode(cellphone);
    expect(answer).toEqual({ status: 200, body: { code: 0, data: { expires_in: 300 } } });
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.headers['content-type']).toBe('application/json');
    // The receiver checks the signature as a gateway would: HMAC-SHA256 of the raw body with the shared secret.
    const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(message!.body).digest('hex')}`);
    const signature = Buffer.from(String(message!.headers['x-signature-256']));
    expect(signature.length === expected.length && timingSafeEqual(signature, expected)).toBe(true);
    const body = JSON.parse(message!.body) as { phone: string; code: string; expiresAt: string };
    expect(Object.keys(body).sort()).toEqual(['code', 'expiresAt', 'phone']);
    expect(body.phone).toBe(cellphone);
    expect(body.code).toMatch(/^\d{6}$/);
    expect(Math.abs(Date.parse(body.expiresAt) - (asked + 300_000))).toBeLessThan(10_000);

    const login = await t.app.inject({ method: 'POST', url: api.login.path, payload: { cellphone, code: body.code, device_kind: 'pc' } });
    expect(login.statusCode).toBe(200);
    expect((login.json() as { code: number }).code).toBe(0);
    expect(login.cookies.find((cookie) => cookie.name === TICKET_COOKIE)?.value).toBeTruthy();

    expect(t.lines.length).toBeGreaterThan(0);
    expect(logsCode(t.lines, body.code), t.lines.join('')).toBe(false);
    expect(t.lines.join('')).not.toContain('login code for');
  });

  it.each([
    ['fails', 'fail', WEBHOOK_ATTEMPTS],
    ['never answers', 'hang', WEBHOOK_ATTEMPTS],
    ['refuses the message (tried once: it would refuse again)', 'refuse', 1],
  ] as const)('answers -1013 when the receiver %s, and the phone may ask again at once', async (_name, failing, attempts) => {
    const cellphone = nextPhone();
    mode = failing;
    const answer = await t.requestCode(cellphone);
    expect(answer).toEqual({ status: 200, body: { code: -1, error: { code: ErrorCode.CodeNotSent, msg: '验证码发送失败，请稍后重试' } } });
    expect(received).toHaveLength(attempts);
    for (const message of received) expect(logsCode(t.lines, (JSON.parse(message.body) as { code: string }).code)).toBe(false);
    expect(t.lines.some((line) => line.includes(`login code webhook: attempt ${attempts} of ${WEBHOOK_ATTEMPTS} failed`))).toBe(true);

    mode = 'ok';
    received.length = 0;
    expect((await t.requestCode(cellphone)).body.code).toBe(0);
    expect(received).toHaveLength(1);
  });
});

describe('login codes without the webhook', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('go to the log, and the start warns that they do', async () => {
    const t = await appWith(database, {});
    try {
      const warning = t.lines.find((line) => line.includes('login codes are written to this log'));
      expect(warning).toBeDefined();
      expect((JSON.parse(warning!) as { level: number }).level).toBe(40);
      const cellphone = nextPhone();
      expect((await t.requestCode(cellphone)).body.code).toBe(0);
      expect(t.lines.some((line) => new RegExp(`login code for ${cellphone}: \\d{6}`).test(line))).toBe(true);
    } finally {
      await t.app.close();
    }
  });

  it('are not announced as going to the log when the webhook is set', async () => {
    const t = await appWith(database, { LOGIN_CODE_WEBHOOK_URL: receiverUrl });
    try {
      expect(t.lines.some((line) => line.includes('login codes are written to this log'))).toBe(false);
    } finally {
      await t.app.close();
    }
  });
});

describe('the webhook settings', () => {
  it('take an http(s) URL, never echoed back (it may carry a token), and refuse a secret without its URL', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problemsOf({ LOGIN_CODE_WEBHOOK_URL: 'ftp://sms.example.com/?token=s3cret', LOGIN_CODE_WEBHOOK_TIMEOUT_MS: '10' })).toEqual([
      'LOGIN_CODE_WEBHOOK_URL must be an http:// or https:// URL',
      'LOGIN_CODE_WEBHOOK_TIMEOUT_MS must be a whole number from 100 to 60000 (got "10")',
    ]);
    expect(problemsOf({ LOGIN_CODE_WEBHOOK_SECRET: SECRET })).toEqual(['LOGIN_CODE_WEBHOOK_SECRET is set without LOGIN_CODE_WEBHOOK_URL']);
    const config = loadConfig({ LOGIN_CODE_WEBHOOK_URL: receiverUrl, LOGIN_CODE_WEBHOOK_SECRET: SECRET });
    expect([config.loginCodeWebhookUrl, config.loginCodeWebhookSecret, config.loginCodeWebhookTimeoutMs]).toEqual([receiverUrl, SECRET, 3_000]);
    expect(loadConfig({}).loginCodeWebhookUrl).toBeUndefined();
  });
});
