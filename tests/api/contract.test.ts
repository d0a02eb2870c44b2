/**
 * The contract is served in full: every entry of the route table (src/shared/endpoints.ts) and
 * every other path (OTHER_PATHS) is answered by the server, except the names listed in
 * NOT_YET_SERVED (src/server/routes/index.ts), which must still answer 404 接口不存在 so that
 * the list cannot lie. A handler removed from the map turns this red.
 */
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { OTHER_PATHS, routes, type EndpointName, type InputOf } from '../../src/shared/endpoints.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { users } from '../../src/server/db/schema.ts';
import { NOT_YET_SERVED, type OtherPathName } from '../../src/server/routes/index.ts';
import { errorOf, openTestApp, type TestApp } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

/** Seeded rows the samples point at. */
interface Fixtures {
  /** A phone that asked for a login code just before the login sample. */
  phone: string;
  code: () => string;
  demoUcode: string;
  snippet: { post_id: number; uuid: string };
  avatarUrl: string;
}

const clientId = (n: number) => `contract-${String(n).padStart(4, '0')}`;

/**
 * A minimal valid input for every call of the table: a new route without a sample is a type
 * error here. Written so that each call succeeds (or meets a business rule) once it is served.
 */
const samples: { [K in EndpointName]: (f: Fixtures) => InputOf<K> } = {
  loginCode: (f) => ({ cellphone: f.phone }),
  login: (f) => ({ cellphone: f.phone, code: f.code(), device_kind: 'mobile' }),
  logout: () => ({}),
  auth: () => ({ t: String(Date.now()) }),
  checkUser: () => ({}),
  channelDetail: () => ({ channel_id: 1 }),
  recommendChannelList: () => ({ size: 5 }),
  categoryChannel: () => ({}),
  channelPosts: () => ({ channel_id: 1, size: 5 }),
  followChannel: () => ({ channel_id: 2 }),
  unfollowChannel: () => ({ channel_id: 2 }),
  userChannelList: () => ({ source: 1, visit_user_id: 1 }),
  followUser: () => ({ user_id: 2 }),
  unfollowUser: () => ({ user_id: 2 }),
  userInfo: () => ({ data_mode: 1, visit_user_id: 2 }),
  userPosts: () => ({ visit_user_id: 2, size: 5 }),
  noteList: (f) => ({ visit_ucode: f.demoUcode }),
  nickUpdate: () => ({ nick: '契约测试者' }),
  postDetail: () => ({ post_id: 5 }),
  postAdd: () => ({ content: '契约测试：一条新动态', channel_id: [1], attach: [], client_id: clientId(1) }),
  postDelete: () => ({ post_id: 5 }),
  likeAdd: () => ({ post_id: 5, type: 1, client_id: clientId(2) }),
  likeCancel: () => ({ post_id: 5, type: 1, client_id: clientId(3) }),
  likeList: () => ({ post_id: 5, size: 5 }),
  commentList: () => ({ post_id: 5, size: 5 }),
  commentReplies: () => ({ comment_id: 1, size: 5 }),
  commentAdd: () => ({ post_id: 5, content: '契约测试评论', client_id: clientId(4) }),
  commentDelete: () => ({ comment_id: 1 }),
  voteSubmit: () => ({ post_id: 5, option_ids: [1], client_id: clientId(5) }),
  search: () => ({ q: '分布式', size: 5 }),
  topicList: () => ({ size: 5 }),
  topicDetail: () => ({ topic_id: 1 }),
  topicPosts: () => ({ topic_id: 1, size: 5 }),
  codeDetail: (f) => f.snippet,
  booklistDetail: () => ({ code: '2024' }),
  complainAdd: () => ({ target_type: 'post', target_id: 5, reason: 'spam', content: '契约测试投诉', client_id: clientId(6) }),
  complainReasons: () => ({}),
  exploreList: () => ({ page: 'horde', block_name: 'sidebar' }),
  configList: () => ({ keys: ['race_medals'] }),
  noteUpdate: () => ({ content: '契约测试笔记' }),
  wxShareSign: () => ({ url: 'https://example.com/home', mpid: 'mp' }),
  collect: () => ({ app_id: 'community-feed', events: [{ event: 'contract_check', properties: {} }] }),
  noticeList: () => ({ size: 5 }),
  noticeUnreadCount: () => ({}),
  noticeRead: () => ({ client_id: clientId(7) }),
  noticeSettings: () => ({ comment: true }),
  moderationQueue: () => ({ size: 5 }),
  moderationHide: () => ({ target_type: 'post', target_id: 5, reason: '契约测试', client_id: clientId(8) }),
  moderationRestore: () => ({ target_type: 'post', target_id: 5, client_id: clientId(9) }),
  moderationDismiss: () => ({ target_type: 'user', target_id: 3, client_id: clientId(10) }),
  moderationSuspend: () => ({ user_id: 3, days: 1, reason: '契约测试', client_id: clientId(11) }),
  moderationLift: () => ({ user_id: 3, client_id: clientId(12) }),
  moderationLog: () => ({ size: 5 }),
};
/** A request to every path outside the JSON table, as its real caller sends it. */
const otherRequests: { [K in OtherPathName]: (f: Fixtures) => InjectOptions } = {
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
let fixtures: Fixtures;
let ticket: string;
let logoutTicket: string;

beforeAll(async () => {
  t = await openTestApp();
  const [demo] = await t.database.db.select().from(users).where(eq(users.id, 1));
  const [snippet] = await queryRows<{ post_id: number; uuid: string }>(
    t.database.db,
    sql`select post_id::int as post_id, uuid from code_snippets order by post_id limit 1`,
  );
  const phone = '13700000077';
  fixtures = {
    phone,
    code: () => t.codes.get(phone) ?? '000000',
    demoUcode: demo!.ucode,
    snippet: snippet!,
    avatarUrl: demo!.avatar,
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
  const call = (withTicket: string | undefined) => t.call(api[name], samples[name](fixtures), { ticket: withTicket });
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
