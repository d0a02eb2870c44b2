/**
 * The contract is served in full: every entry of the route table (src/shared/endpoints.ts) and
 * every other path (OTHER_PATHS) is answered by the server, except the names listed in
 * NOT_YET_SERVED (src/server/routes/index.ts), which must still answer 404 接口不存在 so that
 * the list cannot lie. A handler removed from the map turns this red.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { OTHER_PATHS, routes, type EndpointName } from '../../src/shared/endpoints.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { NOT_YET_SERVED, type OtherPathName } from '../../src/server/routes/index.ts';
import { errorOf, openTestApp, type TestApp } from '../support/api.ts';
import { samples, seededFixtures, type SampleFixtures } from '../support/samples.ts';

/** The shared samples, one left different: */
const contractSamples: typeof samples = {
  ...samples,
  // The shared commentAdd replies to comment 1, which is not on post 5 (a bad request); the contract wants every call valid.
  commentAdd: (f) => ({ ...samples.commentAdd(f), reply_id: undefined }),
};

/** A request to every path outside the JSON table, as its real caller sends it. */
const otherRequests: { [K in OtherPathName]: (f: SampleFixtures) => InjectOptions } = {
  ticketDelete: () => ({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}?ticket=unknown` }),
  uploadImage: () => {
    const boundary = '----contract';
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { method: 'POST', url: OTHER_PATHS.uploadImage, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
  },
  images: (f) => ({ method: 'GET', url: f.avatarUrl }),
  docs: () => ({ method: 'GET', url: `${OTHER_PATHS.docs}/json` }),
  live: () => ({ method: 'GET', url: OTHER_PATHS.live }),
};

const notYetServed = new Set<string>(NOT_YET_SERVED);
const tableNames = Object.keys(routes) as EndpointName[];
const otherNames = Object.keys(OTHER_PATHS) as OtherPathName[];

/** The 404 of an unknown path (src/server/http/static-client.ts). */
function isUnknownPath(status: number, body: unknown): boolean {
  const error = (body as { error?: { code?: number; msg?: string } } | undefined)?.error;
  return status === 404 && error?.code === ErrorCode.NotFound && (error.msg ?? '').startsWith('接口不存在');
}

function jsonOf(response: LightMyRequestResponse): unknown {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}

let t: TestApp;
let fixtures: SampleFixtures;
let ticket: string;
let logoutTicket: string;

beforeAll(async () => {
  t = await openTestApp();
  const phone = '13700000077';
  fixtures = {
    ...(await seededFixtures(t.database.db)),
    codePhone: phone,
    loginPhone: phone,
    // The only difference from the shared fixtures: login spends the code that loginCode's own call (run first) just sent.
    get loginCode() {
      return t.codes.get(phone) ?? '000000';
    },
  };
  ticket = (await t.login('13700000001')).ticket;
  logoutTicket = (await t.login('13700000002')).ticket;
});
afterAll(() => t?.close());

describe('the not-yet-served list', () => {
  it('names only real calls, each once', () => {
    expect(NOT_YET_SERVED.length).toBe(notYetServed.size);
    for (const name of NOT_YET_SERVED) expect([...tableNames, ...otherNames]).toContain(name);
  });
});

describe.each(tableNames)('%s', (name) => {
  const route = routes[name];
  const call = (withTicket: string | undefined) => t.call(api[name], contractSamples[name](fixtures), { ticket: withTicket });
  const ticketFor = () => (route.auth === 'none' ? undefined : name === 'logout' ? logoutTicket : ticket);

  if (notYetServed.has(name)) {
    it('is not served yet: answers 404 接口不存在 (take it off NOT_YET_SERVED when it is)', async () => {
      const answer = await call(ticketFor());
      expect(isUnknownPath(answer.status, answer.body), JSON.stringify(answer.body)).toBe(true);
    });
    return;
  }

  if (route.auth === 'required') {
    it('answers -2000 when logged out', async () => {
      const answer = await call(undefined);
      expect(answer.status).toBe(200);
      expect(errorOf(answer.body)?.code).toBe(ErrorCode.NotLoggedIn);
    });
  }

  it(`is served: ${route.method} ${route.path} answers the envelope from its handler`, async () => {
    const answer = await call(ticketFor());
    expect(isUnknownPath(answer.status, answer.body)).toBe(false);
    expect(answer.status).toBe(200);
    // The sample is valid, so the handler ran: success or a business rule, never a bad request.
    const error = errorOf(answer.body);
    expect(error?.code, JSON.stringify(answer.body)).not.toBe(ErrorCode.BadRequest);
  });
});

describe.each(otherNames)('other path %s', (name) => {
  if (notYetServed.has(name)) {
    it('is not served yet: answers 404 接口不存在 (take it off NOT_YET_SERVED when it is)', async () => {
      const response = await t.app.inject(otherRequests[name](fixtures));
      expect(isUnknownPath(response.statusCode, jsonOf(response)), response.body).toBe(true);
    });
    return;
  }

  it('is served', async () => {
    const pending = t.app.inject(otherRequests[name](fixtures));
    // The live stream answers until it is ended: ended here, once open, as a stopping process ends it.
    if (name === 'live') {
      await vi.waitFor(() => expect(t.app.live.streamCount).toBe(1));
      await t.app.live.close();
    }
    const response = await pending;
    expect(isUnknownPath(response.statusCode, jsonOf(response))).toBe(false);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  });
});
