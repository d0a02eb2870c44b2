/**
 * Request ids (src/server/http/request-id.ts): an answer carries X-Request-Id, the one the
 * request brought when it is a short safe token, else a new random UUID (never a per-process
 * counter, which two processes or a restart would repeat); the same id is the reqId of the
 * request's log lines. Refusals (a -2005, a 404) carry it too.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { behaviourDatabases, testAppFor } from '../support/api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(behaviourDatabases)('request ids on $name', ({ open }) => {
  const app = testAppFor(open);
  let logged: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    logged = await buildApp({
      config: loadConfig({ REQUEST_LIMIT_PER_ADDRESS: '2' }),
      db: app.database.db,
      serveClient: false,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
      codeSender: { send: async () => undefined },
    });
  });
  afterAll(() => logged?.close());

  const read = (headers: Record<string, string> = {}, remoteAddress = '192.0.2.10') =>
    logged.inject({ method: 'GET', url: `${api.topicList.path}?size=1`, headers, remoteAddress });
  const reqIdsLogged = () => lines.map((line) => (JSON.parse(line) as { reqId?: string }).reqId);

  it('generates a random UUID for a request without one, different each time, and logs it as reqId', async () => {
    const [first, second] = [await read({}, '192.0.2.11'), await read({}, '192.0.2.12')];
    const ids = [first.headers['x-request-id'], second.headers['x-request-id']];
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    expect(reqIdsLogged()).toContain(ids[0]);
    expect(reqIdsLogged()).toContain(ids[1]);
  });

  it('keeps a safe incoming id, in the answer and in the log lines', async () => {
    const id = 'nginx-7f3a:01.b_c';
    const answer = await read({ 'x-request-id': id }, '192.0.2.13');
    expect(answer.headers['x-request-id']).toBe(id);
    expect(reqIdsLogged()).toContain(id);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['spaces and quotes', 'abc "def"'],
    ['a log line forged with braces', '{"level":60}'],
    ['a slash', 'a/b'],
  ])('replaces an unsafe incoming id (%s) with a new one', async (_name, id) => {
    const answer = await read({ 'x-request-id': id }, '192.0.2.14');
    expect(answer.headers['x-request-id']).toMatch(UUID);
    expect(reqIdsLogged()).not.toContain(id);
  });

  it('accepts an id of exactly 128 safe characters', async () => {
    const id = 'A'.repeat(128);
    expect((await read({ 'x-request-id': id }, '192.0.2.15')).headers['x-request-id']).toBe(id);
  });

  it('sends the id with refusals too: a -2005 and a 404', async () => {
    for (let i = 0; i < 2; i++) await read({}, '192.0.2.16');
    const refused = await read({ 'x-request-id': 'limited-1' }, '192.0.2.16');
    expect((refused.json() as { error?: { code: number } }).error?.code).toBe(-2005);
    expect(refused.headers['x-request-id']).toBe('limited-1');
    const missing = await logged.inject({ method: 'GET', url: '/serv/no-such-call', headers: { 'x-request-id': 'missing-1' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('missing-1');
  });
});
