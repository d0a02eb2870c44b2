/**
 * Web security: what the server answers to browsers that may be on another
 * site, to careless clients and to the log.
 *
 * - Every HTML answer carries a Content-Security-Policy with frame-ancestors: the page its
 *   own, the API docs theirs (and Swagger UI runs under it in Chromium), anything else a
 *   closed one. HSTS only when SECURE_COOKIES is on. No source map is served.
 * - No state change on a GET: the image-style ticket delete ends a live ticket only when the
 *   query names it and the caller is its device; a mutex-ended one it drops (the web's way
 *   out of a 452).
 * - A ticket is taken only the way it was issued: a browser's as its cookie, an app's as the
 *   Ticket header with the Device-Id it was issued to.
 * - CSRF: a cookie-authenticated write from another site (Sec-Fetch-Site, Origin, Referer) or
 *   with a body that is not JSON (a form, text/plain) is refused before anything happens;
 *   the image upload is multipart and checked by origin.
 * - No ticket in any log line.
 * - Bodies over the limit, headers over 16 KiB, URLs that do not decode, over-long paths and
 *   malformed requests all answer the envelope (a real socket for what Node parses itself);
 *   a fault of ours answers 500 系统内部错误 with no stack trace and no SQL.
 */
import { connect } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { OTHER_PATHS, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { isEnvelope, type Envelope } from '../../src/shared/envelope.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { tickets } from '../../src/server/db/schema.ts';
import { hashToken, lookupTicket } from '../../src/server/services/sessions.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { codeOf, createTestApp, errorOf, isChineseMessage, newClientId, phoneSource, type CallOptions, type TestApp } from '../support/api.ts';
import { databaseDigest } from '../support/changes.ts';
import { openTestDatabase } from '../support/db.ts';
import { makePng, multipart } from '../support/images.ts';

const freshPhone = phoneSource('1570004');

let database: Database;
let t: TestApp;
beforeAll(async () => {
  database = await openTestDatabase();
  t = await createTestApp(database);
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

const state = async (ticket: string) => (await lookupTicket(database.db, ticket)).state;
const bodyOf = (payload: string): Envelope<unknown> => JSON.parse(payload) as Envelope<unknown>;

describe('the image-style ticket delete changes nothing that is not the caller’s own', () => {
  const gif = (query: string, options: Partial<InjectOptions> = {}) =>
    t.app.inject({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}${query}`, ...options });
  const clearsCookie = (response: { cookies: { name: string; value: string }[] }) =>
    response.cookies.some((cookie) => cookie.name === TICKET_COOKIE && cookie.value === '');

  it('leaves a live ticket carried by the cookie alone when the query does not name it (a link from another site)', async () => {
    const me = await t.login(freshPhone());
    const response = await gif('', { cookies: { [TICKET_COOKIE]: me.ticket } });
    expect(response.headers['content-type']).toBe('image/gif');
    expect(await state(me.ticket)).toBe('valid');
    expect(clearsCookie(response)).toBe(false);
  });

  it("never ends someone else's live ticket named in the query", async () => {
    const victim = await t.login(freshPhone());
    const attacker = await t.login(freshPhone());
    await gif(`?ticket=${encodeURIComponent(victim.ticket)}`);
    await gif(`?ticket=${encodeURIComponent(victim.ticket)}`, { cookies: { [TICKET_COOKIE]: attacker.ticket } });
    await gif(`?ticket=${encodeURIComponent(victim.ticket)}`, { headers: { ticket: attacker.ticket, 'device-id': attacker.deviceId } });
    expect(await state(victim.ticket)).toBe('valid');
    expect(await state(attacker.ticket)).toBe('valid');
  });

  it('ends a live ticket named in the query by its own device: the same cookie, or its Device-Id', async () => {
    const byCookie = await t.login(freshPhone());
    const response = await gif(`?ticket=${encodeURIComponent(byCookie.ticket)}`, { cookies: { [TICKET_COOKIE]: byCookie.ticket } });
    expect(await state(byCookie.ticket)).toBe('none');
    expect(clearsCookie(response)).toBe(true);

    const byDevice = await t.login(freshPhone(), 'mobile', { deviceId: 'web-security-app-02' });
    await gif(`?ticket=${encodeURIComponent(byDevice.ticket)}`, { headers: { 'device-id': 'not-its-device-01' } });
    expect(await state(byDevice.ticket)).toBe('valid');
    await gif(`?ticket=${encodeURIComponent(byDevice.ticket)}`, { headers: { ticket: byDevice.ticket, 'device-id': byDevice.deviceId } });
    expect(await state(byDevice.ticket)).toBe('none');
  });

  it('drops a ticket the login mutex ended (the web after a 452: cookie only), and clears that cookie', async () => {
    const phone = freshPhone();
    const first = await t.login(phone, 'pc');
    await t.login(phone, 'pc');
    expect((await t.call(api.auth, {}, { ticket: first.ticket })).status).toBe(452);
    const response = await gif('', { cookies: { [TICKET_COOKIE]: first.ticket } });
    expect(clearsCookie(response)).toBe(true);
    const after = await t.call(api.auth, {}, { ticket: first.ticket });
    expect([after.status, codeOf(after)]).toEqual([200, -2000]);
  });
});

describe('a ticket is taken only the way it was issued', () => {
  const app = { deviceId: 'web-security-app-01' };
  /** A read (the login user) and a write (a like, whose ticket a live one is remembered for) by these credentials. */
  const readAndWrite = async (options: CallOptions) => [
    codeOf(await t.call(api.auth, {}, options)),
    codeOf(await t.call(api.likeAdd, { post_id: 7 }, options)),
  ];

  it("an app's ticket (its login sent Device-Id) works as the Ticket header with that Device-Id only, for reads and writes", async () => {
    const me = await t.login(freshPhone(), 'mobile', app);
    // Used rightly first, so that the write's lookup remembers it live.
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: app.deviceId } })).toEqual([undefined, undefined]);
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: 'some-other-device' } })).toEqual([-2000, -2000]);
    // As the cookie: alone, and beside its own Device-Id (no Ticket header).
    expect(await readAndWrite({ ticket: me.ticket })).toEqual([-2000, -2000]);
    expect(await readAndWrite({ ticket: me.ticket, headers: { 'device-id': app.deviceId } })).toEqual([-2000, -2000]);
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: app.deviceId } })).toEqual([undefined, undefined]);
  });

  it("a browser's ticket (its login sent no Device-Id) works as its cookie only, for reads and writes", async () => {
    const me = await t.login(freshPhone(), 'pc');
    expect(await readAndWrite({ ticket: me.ticket })).toEqual([undefined, undefined]);
    // As the Ticket header, with the device id its login answered and with another.
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: me.deviceId } })).toEqual([-2000, -2000]);
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: 'some-other-device' } })).toEqual([-2000, -2000]);
    expect(await readAndWrite({ ticket: me.ticket })).toEqual([undefined, undefined]);
  });

  it('a ticket issued before the way was kept is taken as before: the cookie, or headers with its own Device-Id', async () => {
    const me = await t.login(freshPhone(), 'pc');
    await database.db.update(tickets).set({ issuedVia: null }).where(eq(tickets.tokenHash, hashToken(me.ticket)));
    expect(await readAndWrite({ ticket: me.ticket })).toEqual([undefined, undefined]);
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: me.deviceId } })).toEqual([undefined, undefined]);
    expect(await readAndWrite({ ticket: me.ticket, asHeaders: { deviceId: 'some-other-device' } })).toEqual([-2000, -2000]);
  });

  it('is taken only its way when the mutex ended it too: another way learns nothing (-2000, not 452)', async () => {
    const phone = freshPhone();
    const first = await t.login(phone, 'mobile', app);
    await t.login(phone, 'mobile', app);
    expect((await t.call(api.auth, {}, { ticket: first.ticket, asHeaders: { deviceId: app.deviceId } })).status).toBe(452);
    for (const options of [{ asHeaders: { deviceId: 'some-other-device' } }, {}, { headers: { 'device-id': app.deviceId } }]) {
      const other = await t.call(api.auth, {}, { ticket: first.ticket, ...options });
      expect([other.status, codeOf(other)], JSON.stringify(options)).toEqual([200, -2000]);
    }
  });
});

describe('CSRF: cookie-authenticated writes come from this origin, as JSON', () => {
  const comment = () => JSON.stringify({ post_id: 9, content: '跨站评论', client_id: newClientId('csrf') });
  const post = (ticket: string, headers: Record<string, string>, payload: string | Buffer = comment()) =>
    t.app.inject({ method: 'POST', url: api.commentAdd.path, cookies: { [TICKET_COOKIE]: ticket }, headers, payload });

  it('refuses a cross-site form, a text/plain POST and other origins, and writes nothing', async () => {
    const me = await t.login(freshPhone());
    const before = await databaseDigest(database.db);
    const refused: [Record<string, string>, number][] = [
      [{ 'content-type': 'text/plain' }, -1004],
      [{ 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' }, -1006],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, -1004],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, -1004],
      [{}, -1004],
      [{ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, -1006],
      [{ 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, -1006],
      [{ 'content-type': 'application/json', origin: 'https://evil.example' }, -1006],
      [{ 'content-type': 'application/json', origin: 'null' }, -1006],
      [{ 'content-type': 'application/json', origin: 'http://localhost.evil.example' }, -1006],
      [{ 'content-type': 'application/json', referer: 'https://evil.example/page' }, -1006],
    ];
    for (const [headers, code] of refused) {
      const answer = await post(me.ticket, headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(200);
      const body = bodyOf(answer.payload);
      expect(errorOf(body)?.code, `${JSON.stringify(headers)}: ${answer.payload}`).toBe(code);
      expect(isChineseMessage(errorOf(body)?.msg)).toBe(true);
    }
    // Logout by a cross-site form does not end the ticket either.
    await t.app.inject({ method: 'POST', url: api.logout.path, cookies: { [TICKET_COOKIE]: me.ticket }, headers: { 'content-type': 'text/plain', origin: 'https://evil.example' }, payload: '' });
    expect(await state(me.ticket)).toBe('valid');
    expect(await databaseDigest(database.db)).toEqual(before);
  });

  it('accepts the app’s own requests: same-origin, its Origin, JSON with a charset, or no browser headers at all', async () => {
    const me = await t.login(freshPhone());
    for (const headers of <Record<string, string>[]>[
      { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
      { 'content-type': 'application/json; charset=utf-8', origin: 'http://localhost:80' },
      { 'content-type': 'application/json', referer: 'http://localhost/message/detail/9' },
      { 'content-type': 'application/json' },
    ]) {
      const answer = await post(me.ticket, headers);
      expect(bodyOf(answer.payload).code, `${JSON.stringify(headers)}: ${answer.payload}`).toBe(0);
    }
  });

  it('leaves calls with Ticket + Device-Id headers alone (no other site can send custom headers)', async () => {
    const me = await t.login(freshPhone(), 'mobile', { deviceId: 'web-security-app-03' });
    const answer = await t.app.inject({
      method: 'POST',
      url: api.commentAdd.path,
      headers: { 'content-type': 'application/json', ticket: me.ticket, 'device-id': me.deviceId, 'sec-fetch-site': 'cross-site' },
      payload: comment(),
    });
    expect(bodyOf(answer.payload).code, answer.payload).toBe(0);
  });

  it('checks the multipart image upload by origin', async () => {
    const me = await t.login(freshPhone());
    const png = await makePng(8, 6);
    const send = (headers: Record<string, string>) => {
      const form = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: png }]);
      return t.app.inject({
        method: 'POST',
        url: OTHER_PATHS.uploadImage,
        cookies: { [TICKET_COOKIE]: me.ticket },
        headers: { ...form.headers, ...headers },
        payload: form.payload,
      });
    };
    const crossSite = await send({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
    expect(errorOf(bodyOf(crossSite.payload))?.code, crossSite.payload).toBe(-1006);
    const sameOrigin = await send({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost' });
    expect(bodyOf(sameOrigin.payload).code, sameOrigin.payload).toBe(0);
  });
});

describe('pages, docs, headers and source maps', () => {
  let clientDir: string;
  let secure: FastifyInstance;
  let plain: FastifyInstance;

  beforeAll(async () => {
    clientDir = await mkdtemp(join(tmpdir(), 'client-security-'));
    await mkdir(join(clientDir, 'assets'));
    await writeFile(
      join(clientDir, 'index.html'),
      '<!doctype html><html><head><meta charset="UTF-8"><title>x</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
    );
    await writeFile(join(clientDir, 'assets/app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map');
    await writeFile(join(clientDir, 'assets/app.js.map'), '{"version":3,"sources":["../../src/client/secret.ts"],"mappings":""}');
    await writeFile(join(clientDir, 'robots.txt.map'), 'no');
    secure = await buildApp({ config: loadConfig({ CLIENT_DIR: clientDir, SECURE_COOKIES: 'true' }), db: database.db });
    plain = await buildApp({ config: loadConfig({ CLIENT_DIR: clientDir }), db: database.db });
  });
  afterAll(async () => {
    await secure?.close();
    await plain?.close();
    if (clientDir) await rm(clientDir, { recursive: true, force: true });
  });

  it('puts a Content-Security-Policy with frame-ancestors on every HTML answer', async () => {
    const urls = ['/index.html', '/', '/home', '/no/such/page', '/docs', '/docs/', '/docs/static/index.html', '/docs/json'];
    let html = 0;
    for (const url of urls) {
      const response = await plain.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(500);
      if (!String(response.headers['content-type'] ?? '').startsWith('text/html')) continue;
      html++;
      const policy = String(response.headers['content-security-policy'] ?? '');
      expect(policy, url).toMatch(/frame-ancestors '(self|none)'/);
      expect(policy, url).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    }
    expect(html).toBeGreaterThanOrEqual(5);
  });

  it('sends HSTS on every answer when SECURE_COOKIES is on, and never otherwise', async () => {
    for (const url of ['/home', `${api.auth.path}?t=1`, '/assets/app.js', '/no/such/page']) {
      expect((await secure.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toMatch(/^max-age=\d{8,}/);
      expect((await plain.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('serves no source map, whatever the build left in the folder', async () => {
    for (const url of ['/assets/app.js.map', '/robots.txt.map', '/assets/missing.js.map?x=1']) {
      const response = await plain.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.payload).not.toContain('mappings');
      expect(isEnvelope(response.json())).toBe(true);
    }
    expect((await plain.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
  });

  it('runs the API docs under their policy in Chromium: no violation, the calls listed', { timeout: 60_000 }, async () => {
    await plain.listen({ port: 0, host: '127.0.0.1' });
    const address = plain.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const browser = await launchBrowser();
    try {
      const violations: string[] = [];
      browser.page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      await browser.page.goto(`http://127.0.0.1:${port}/docs`);
      await browser.page.waitForSelector('.opblock', { timeout: 30_000 });
      expect(await browser.page.locator('.opblock').count()).toBeGreaterThan(30);
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('no ticket in any log line', () => {
  it('logs requests without the ticket of a cookie, a header or a query', async () => {
    const lines: string[] = [];
    const logged = await buildApp({
      config: loadConfig({}),
      db: database.db,
      serveClient: false,
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
      codeSender: { send: async () => undefined },
    });
    const other = await createTestApp(database);
    try {
      const me = await other.login(freshPhone(), 'pc');
      const ended = await other.login(freshPhone(), 'mobile');
      const inject = (options: InjectOptions) => logged.inject(options);
      await inject({ method: 'GET', url: `${api.auth.path}?t=1`, cookies: { [TICKET_COOKIE]: me.ticket } });
      await inject({ method: 'GET', url: `${api.auth.path}?t=1`, headers: { ticket: me.ticket, 'device-id': me.deviceId } });
      await inject({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}?ticket=${encodeURIComponent(ended.ticket)}` });
      await inject({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}?a=1&TICKET=${encodeURIComponent(me.ticket)}#x` });
      await inject({ method: 'POST', url: api.logout.path, cookies: { [TICKET_COOKIE]: me.ticket }, headers: { 'content-type': 'application/json' }, payload: '{}' });
      await inject({ method: 'POST', url: api.commentAdd.path, headers: { 'content-type': 'application/json', ticket: ended.ticket, 'device-id': ended.deviceId }, payload: '{' });
      expect(lines.length).toBeGreaterThan(5);
      expect(lines.some((line) => line.includes('ticket=[redacted]'))).toBe(true);
      for (const line of lines) {
        expect(line).not.toContain(me.ticket);
        expect(line).not.toContain(ended.ticket);
        expect(line).not.toContain(encodeURIComponent(me.ticket));
        expect(line).not.toContain(encodeURIComponent(ended.ticket));
      }
    } finally {
      await logged.close();
      await other.close();
    }
  });
});

describe('every answer is the envelope', () => {
  it('answers a JSON body over the limit with -1004 (HTTP 200), never a 413 page', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: api.channelPosts.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ size: 5, pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(answer.statusCode).toBe(200);
    expect(errorOf(bodyOf(answer.payload))).toEqual({ code: -1004, msg: expect.stringContaining('请求内容过大') });
  });

  it('answers what Node parses itself (headers over 16 KiB, a long URL, a malformed request) and bad encodings on a real socket', async () => {
    const server = await createTestApp(database);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const raw = (request: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('utf8')));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head = '', ...rest] = data.split('\r\n\r\n');
          resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: rest.join('\r\n\r\n') });
        });
        socket.end(request);
      });
    const get = (path: string, extra = '') => raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`);
    try {
      const cases: [string, Promise<{ status: number; body: string }>, number][] = [
        ['headers over 16 KiB', get(api.auth.path, `X-Big: ${'a'.repeat(20_000)}\r\n`), 431],
        ['a 20 KB URL', get(`${api.auth.path}?t=${'1'.repeat(20_000)}`), 431],
        ['a malformed request line', raw('NOT HTTP AT ALL\r\n\r\n'), 400],
        ['a path that does not decode', get('/serv/v1/%zz'), 200],
        ['an /img id that does not decode', get('/img/%E0%A4%A'), 200],
        ['an /img id over the router limit', get(`/img/${'a'.repeat(300)}`), 404],
        ['a query that does not decode', get(`${api.auth.path}?t=%zz&x=%`), 200],
        ['an unknown method', raw('BREW /serv/v1/user/auth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400],
      ];
      for (const [what, pending, status] of cases) {
        const answer = await pending;
        expect(answer.status, what).toBe(status);
        let body: unknown;
        expect(() => (body = JSON.parse(answer.body)), `${what}: ${answer.body.slice(0, 200)}`).not.toThrow();
        expect(isEnvelope(body), what).toBe(true);
        const error = errorOf(body as Envelope<unknown>);
        if (error) expect(isChineseMessage(error.msg), `${what}: ${error.msg}`).toBe(true);
      }
    } finally {
      await server.close();
    }
  });

  it('answers a fault of ours with 500 系统内部错误, no stack trace and no SQL', async () => {
    const broken = await openTestDatabase();
    const app = await createTestApp(broken);
    await broken.close();
    try {
      const answer = await app.call(api.channelPosts, { size: 5 });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ code: -1, error: { code: -1002, msg: '系统内部错误' } });
      expect(answer.response.payload).not.toMatch(/select|from|at |\.ts|PGlite/i);
    } finally {
      await app.app.close();
    }
  });
});
