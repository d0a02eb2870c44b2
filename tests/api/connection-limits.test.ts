/**
 * Every connection has deadlines and one address a cap, on a real socket (the settings of
 * config.ts, short here): headers sent a byte at a time, a body sent a byte at a time, an idle
 * kept-alive connection, and more connections from one address than the cap. Each slow client
 * sends a bounded number of bytes; the test asserts the server ended the connection (with the
 * 408 envelope) before the client was done, never how long that took.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { createTestApp, type TestApp } from '../support/api.ts';
import { openTestDatabase } from '../support/db.ts';

const DEADLINES = { HEADERS_TIMEOUT_MS: '600', REQUEST_TIMEOUT_MS: '1200', KEEP_ALIVE_TIMEOUT_MS: '400' };
const CAP = 3;

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

async function listening(env: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp(database, { env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, port: (t.app.server.address() as { port: number }).port };
}

interface Connection {
  socket: Socket;
  /** What the server sent so far. */
  received(): string;
  /** Resolves with all the server sent once the connection is closed. */
  closed: Promise<string>;
  /** Whether the server's end came before the client was done sending. */
  cutShort(): boolean;
}

function open(port: number, localAddress = '127.0.0.1'): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let data = '';
    let done = false;
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    const closed = new Promise<string>((resolveClosed) => socket.once('close', () => resolveClosed(data)));
    void closed.then(() => (done = true));
    socket.once('connect', () =>
      resolve({ socket, received: () => data, closed, cutShort: () => done }),
    );
    socket.once('error', reject);
  });
}

/** Sends `text` one byte every `everyMs`, stopping once the connection is closed; true if it was cut before the end. */
async function trickle(connection: Connection, text: string, everyMs = 50): Promise<boolean> {
  for (const byte of text) {
    if (connection.cutShort() || connection.socket.destroyed) return true;
    connection.socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return connection.cutShort();
}

const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; error?: { code: number; msg: string } };
const statusOf = (answer: string) => Number(answer.split(' ')[1]);
const REQUEST = (path: string, payload = '{}') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;

describe('connection deadlines', () => {
  let server: { t: TestApp; port: number };
  beforeAll(async () => {
    server = await listening(DEADLINES);
  });
  afterAll(() => server?.t.close());

  it('reads its settings from the environment, with defaults', () => {
    expect(loadConfig({})).toMatchObject({ headersTimeoutMs: 20_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 72_000, maxConnectionsPerAddress: 256 });
    expect(loadConfig({ ...DEADLINES, MAX_CONNECTIONS_PER_ADDRESS: '7' })).toMatchObject({
      headersTimeoutMs: 600,
      requestTimeoutMs: 1200,
      keepAliveTimeoutMs: 400,
      maxConnectionsPerAddress: 7,
    });
  });

  it('ends a connection whose headers come a byte at a time, with the 408 envelope', { timeout: 60_000 }, async () => {
    const connection = await open(server.port);
    // 400 bytes at 50 ms each would take 20 s: the deadline comes long before.
    const headers = `POST ${api.channelPosts.path} HTTP/1.1\r\nHost: localhost\r\n${'X-Slow: a\r\n'.repeat(40)}`;
    expect(await trickle(connection, headers)).toBe(true);
    const answer = await connection.closed;
    expect(statusOf(answer)).toBe(408);
    expect(body(answer).error).toEqual({ code: -1004, msg: '请求超时，请重试' });
  });

  it('ends a connection whose body comes a byte at a time, with the 408 envelope', { timeout: 60_000 }, async () => {
    const connection = await open(server.port);
    const payload = JSON.stringify({ size: 5, pad: 'x'.repeat(400) });
    const request = REQUEST(api.channelPosts.path, payload);
    const head = request.slice(0, request.indexOf('\r\n\r\n') + 4);
    connection.socket.write(head);
    expect(await trickle(connection, payload)).toBe(true);
    const answer = await connection.closed;
    expect(statusOf(answer)).toBe(408);
    expect(body(answer).error?.code).toBe(-1004);
  });

  it('closes a kept-alive connection left idle after its answer', { timeout: 60_000 }, async () => {
    const connection = await open(server.port);
    connection.socket.write(REQUEST(api.complainReasons.path));
    // Nothing more is sent: the server alone ends it.
    const answer = await connection.closed;
    expect(statusOf(answer)).toBe(200);
    expect(body(answer).code).toBe(0);
  });
});

describe('connections per address', () => {
  let server: { t: TestApp; port: number };
  beforeAll(async () => {
    server = await listening({ MAX_CONNECTIONS_PER_ADDRESS: String(CAP), KEEP_ALIVE_TIMEOUT_MS: '60000' });
  });
  afterAll(() => server?.t.close());

  /** A connection that made one request and is kept alive. */
  async function keptAlive(localAddress = '127.0.0.1'): Promise<Connection> {
    const connection = await open(server.port, localAddress);
    connection.socket.write(REQUEST(api.complainReasons.path));
    for (let i = 0; i < 500 && !connection.received().includes('"code":0') && !connection.cutShort(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return connection;
  }

  it(`answers the connection beyond ${CAP} of one address with 429 and closes it; other addresses and later ones are served`, { timeout: 60_000 }, async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => keptAlive()));
    for (const connection of held) expect(statusOf(connection.received())).toBe(200);

    const refused = await open(server.port);
    refused.socket.write(REQUEST(api.complainReasons.path));
    const answer = await refused.closed;
    expect(statusOf(answer)).toBe(429);
    expect(body(answer).error).toEqual({ code: -2005, msg: '连接过多，请稍后再试' });
    expect(answer).toMatch(/\r\nRetry-After: 1\r\n/i);

    // Another address has a cap of its own.
    const elsewhere = await keptAlive('127.0.0.2');
    expect(statusOf(elsewhere.received())).toBe(200);

    // One of the address's connections closes: the next one is served.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    for (let i = 0; i < 100; i++) {
      const again = await keptAlive();
      if (again.received().startsWith('HTTP/1.1 200')) {
        again.socket.destroy();
        break;
      }
      // The server may not have seen the close yet: try again.
      await again.closed;
      expect(i).toBeLessThan(99);
    }
    for (const connection of [...held, elsewhere]) connection.socket.destroy();
  });
});
