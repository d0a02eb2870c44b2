/**
 * No secret in a log line under any spelling, on PGlite and on PostgreSQL: a ticket named in a
 * query percent-encoded (`%74icket`, the name the query parser decodes to `ticket`), in mixed
 * case, repeated, doubly encoded or as an array; the ticket cookie and the Ticket header; a
 * body carrying a ticket or a login code; an error's text. Lines are read from the app's own
 * logger (its streamWrite hook is what hides them), and the ticket the query named really ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { OTHER_PATHS, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { FastifyInstance } from 'fastify';
import { REDACTED, redactSecrets } from '../../src/server/http/log-redaction.ts';
import { lookupTicket } from '../../src/server/services/sessions.ts';
import { phoneSource, testAppFor, testDatabases } from '../support/api.ts';

const SECRET = 'S3cr3tT1ck3tValue_abc-XYZ';

describe('redactSecrets', () => {
  it.each([
    ['percent-encoded name', `/serv/v1/user/ticket/delete?%74icket=${SECRET}`],
    ['percent-encoded, upper-case escapes and letters', `/x?%54%49CKET=${SECRET}`],
    ['an escape inside the name', `/x?t%69ck%65t=${SECRET}&a=1`],
    ['doubly encoded', `/x?%2574icket=${SECRET}`],
    ['mixed case', `/x?a=1&TiCkEt=${SECRET}#frag`],
    ['repeated', `/x?ticket=${SECRET}&ticket=${SECRET}2&TICKET=${SECRET}3`],
    ['as an array', `/x?ticket[]=${SECRET}&ticket%5B%5D=${SECRET}`],
    ['the cookie by its name', `/x?gcess=${SECRET}&GCESS=${SECRET}`],
    ['a malformed escape beside it', `/x?%zz=1&%74icket=${SECRET}`],
    ['plus signs in the name', `/x?+ticket+=${SECRET}`],
  ])('hides the ticket of a query: %s', (_name, url) => {
    const redacted = redactSecrets(url);
    expect(redacted).not.toContain(SECRET);
    expect(redacted).toContain(REDACTED);
  });

  it('hides a run of 43 or more ticket characters in a path, and keeps ids and words', () => {
    const ticket = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';
    expect(ticket).toHaveLength(43);
    for (const url of [`/serv/v1/${ticket}`, `/${ticket}.map`, `/a/b?x=${ticket}`, `/a/${ticket}Z/b`]) {
      expect(redactSecrets(`{"msg":"Route GET:${url} not found"}`), url).not.toContain(ticket.slice(0, 40));
    }
    const kept = `{"reqId":"${ticket}","url":"/img/0123456789abcdef0123456789abcdef.png","msg":"/serv/v1/post/detail ${'x'.repeat(42)}"}`;
    expect(redactSecrets(kept)).toBe(kept);
  });

  it('hides the cookie and Ticket headers, however they are spelled, and keeps the rest', () => {
    const line = JSON.stringify({
      req: {
        headers: { cookie: `${TICKET_COOKIE}=${SECRET}; theme=dark`, Ticket: SECRET, 'X-TICKET': SECRET, Authorization: `Bearer ${SECRET}`, 'device-id': 'device-1' },
      },
      res: { headers: { 'set-cookie': [`${TICKET_COOKIE}=${SECRET}; Path=/; HttpOnly`] } },
    });
    const redacted = redactSecrets(line);
    expect(redacted).not.toContain(SECRET);
    expect(redacted).toContain('device-1');
    expect(JSON.parse(redacted)).toBeTruthy();
  });

  it('hides tickets and login codes in bodies, and keeps error codes', () => {
    const line = JSON.stringify({
      body: { cellphone: '13800000000', code: '123456', sms_code: 654321, ticket: SECRET, content: '你好' },
      err: { code: '57P01', type: 'DatabaseError' },
      answer: { code: -2000 },
      msg: `POST with ticket=${SECRET} and Ticket: ok`,
    });
    const redacted = redactSecrets(line);
    expect(redacted).not.toContain(SECRET);
    expect(redacted).not.toContain('123456');
    expect(redacted).not.toContain('654321');
    expect(redacted).toContain('57P01');
    expect(redacted).toContain('-2000');
    expect(redacted).toContain('你好');
  });
});

describe.each(testDatabases)('log lines of a real app on $name', ({ name, open }) => {
  const freshPhone = phoneSource(name === 'PGlite' ? '1583401' : '1583402');
  const app = testAppFor(open);
  let logged: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    logged = await buildApp({
      config: loadConfig({}),
      db: app.database.db,
      serveClient: false,
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
      codeSender: { send: async () => undefined },
    });
  });
  afterAll(() => logged?.close());

  it('ends the ticket a percent-encoded name carries, and no line holds it', async () => {
    const me = await app.t.login(freshPhone(), 'pc');
    const other = await app.t.login(freshPhone(), 'mobile');
    const answer = await logged.inject({
      method: 'GET',
      url: `${OTHER_PATHS.ticketDelete}?%74icket=${encodeURIComponent(me.ticket)}&TICKET=${encodeURIComponent(me.ticket)}`,
      cookies: { [TICKET_COOKIE]: me.ticket },
    });
    expect(answer.headers['content-type']).toBe('image/gif');
    // The server read the name as `ticket`: the ticket is gone.
    expect((await lookupTicket(app.database.db, me.ticket)).state).toBe('none');

    await logged.inject({ method: 'GET', url: `${api.auth.path}?T%49CKET=${other.ticket}&t=1`, headers: { Ticket: other.ticket, 'device-id': other.deviceId } });
    await logged.inject({
      method: 'POST',
      url: api.login.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ cellphone: freshPhone(), code: '123456', ticket: other.ticket }),
    });
    // What a handler or a hook might log: the headers, the cookies and the body of a request.
    logged.log.info({ headers: { cookie: `${TICKET_COOKIE}=${other.ticket}`, ticket: other.ticket }, body: { code: '123456', Ticket: other.ticket } }, 'a request');
    logged.log.error(new Error(`query failed for ?ticket=${other.ticket}`));

    expect(lines.length).toBeGreaterThan(6);
    for (const line of lines) {
      for (const ticket of [me.ticket, other.ticket]) {
        expect(line).not.toContain(ticket);
        expect(line).not.toContain(encodeURIComponent(ticket));
      }
      expect(line).not.toContain('123456');
    }
    expect(lines.some((line) => line.includes('%74icket=[redacted]'))).toBe(true);
  });

  it('hides what is shaped like a ticket anywhere in a logged URL: a path segment, a file name, a query value', async () => {
    const { ticket } = await app.t.login(freshPhone(), 'pc');
    const from = lines.length;
    const urls = [`/serv/v1/${ticket}`, `/${ticket}.map`, `/img/${ticket}.png?w=1`, `/post/1?next=${ticket}&a=b`, `/serv/v1/user-${ticket}x`];
    for (const url of urls) await logged.inject({ method: 'GET', url });
    const written = lines.slice(from);
    // Each request's incoming line (which names its URL) and its completed one.
    expect(written.length).toBeGreaterThanOrEqual(urls.length * 2);
    for (const line of written) expect(line).not.toContain(ticket);
    expect(written.filter((line) => line.includes(REDACTED)).length).toBeGreaterThanOrEqual(urls.length);
  });

  it('still answers and logs a request whose query cannot be decoded', async () => {
    const answer = await logged.inject({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}?%zz&%74icket=%zz${SECRET}` });
    expect(answer.headers['content-type']).toBe('image/gif');
    expect(lines.every((line) => !line.includes(SECRET))).toBe(true);
  });
});
