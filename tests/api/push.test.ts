/**
 * Web Push (services/push.ts, routes/push.ts), on both engines, against a push service of the
 * test's own on loopback (HTTPS with a certificate made here) that decrypts what it is sent with
 * the subscription's keys (RFC 8291, aes128gcm) as a browser's push service would hand it on:
 *
 * - a new notice reaches the subscribed device of its user, signed with the server's VAPID key,
 *   saying who did what, where a tap goes; a group's newer actor pushes again; a read does not;
 * - two processes hearing the same notice push it once;
 * - a subscription the push service answers 410 is dropped; logout drops the device's;
 * - the server sends to no address outside PUSH_SERVICE_HOSTS.
 */
import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { pushSubscriptions } from '../../src/server/db/schema.ts';
import type { PushPayload } from '../../src/server/services/push.ts';
import { codeOf, createTestApp, newClientId, phoneSource, testAppFor, testDatabases } from '../support/api.ts';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
};

/** What the push service was sent for one subscription. */
interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  payload: PushPayload;
}

/** A subscription as a browser makes one: its own key pair and auth secret, at an address of the test's push service. */
function browserSubscription(base: string, name: string) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  const auth = randomBytes(16);
  return {
    keys,
    auth,
    json: { endpoint: `${base}/push/${name}`, keys: { p256dh: keys.getPublicKey('base64url'), auth: auth.toString('base64url') } },
  };
}

const certificateDir = mkdtempSync(join(tmpdir(), 'push-test-'));
execFileSync(
  'openssl',
  ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'].concat([
    '-keyout',
    join(certificateDir, 'key.pem'),
    '-out',
    join(certificateDir, 'cert.pem'),
  ]),
  { stdio: 'ignore' },
);
const certificate = readFileSync(join(certificateDir, 'cert.pem'));
const trustingAgent = () => new https.Agent({ ca: certificate });

/** The push service: decrypts each delivery for the subscription its path names; answers what `answer` says. */
const subscribers = new Map<string, { keys: ECDH; auth: Buffer }>();
const deliveries: Delivery[] = [];
let answer = (_path: string) => 201;
const pushService = https.createServer({ key: readFileSync(join(certificateDir, 'key.pem')), cert: certificate }, (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const path = request.url ?? '';
    const subscriber = subscribers.get(path);
    if (subscriber) {
      const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: subscriber.keys, authSecret: subscriber.auth });
      deliveries.push({ path, headers: request.headers, payload: JSON.parse(plain.toString('utf8')) as PushPayload });
    }
    response.writeHead(answer(path)).end();
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((listening) => pushService.listen(0, '127.0.0.1', listening));
  base = `https://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((closed) => pushService.close(closed));
  rmSync(certificateDir, { recursive: true, force: true });
});

const ARRIVES_WITHIN_MS = 20_000;
const freshPhone = phoneSource('1570051');
/** Each subscription's own address at the push service, across both engines' blocks. */
let subscriptionCount = 0;

describe.each(testDatabases)('Web Push on $name', ({ open }) => {
  const ctx = testAppFor(open, { PUSH_SERVICE_HOSTS: '127.0.0.1' }, () => ({ pushAgent: trustingAgent() }));
  beforeAll(() => ctx.t.app.live.listenTo(ctx.database));

  async function subscribed(name: string, deviceKind: 'pc' | 'mobile' = 'mobile') {
    const user = await ctx.t.login(freshPhone(), deviceKind);
    const subscription = browserSubscription(base, `${name}-${++subscriptionCount}`);
    subscribers.set(new URL(subscription.json.endpoint).pathname, subscription);
    const result = await ctx.t.call(api.pushSubscribe, { ...subscription.json, client_id: newClientId('push') }, { ticket: user.ticket });
    expect(result.data()).toEqual({ subscribed: true });
    return { ...user, path: new URL(subscription.json.endpoint).pathname };
  }
  const deliveredTo = (path: string) => deliveries.filter((delivery) => delivery.path === path);
  const like = async (ticket: string, postId: number) =>
    (await ctx.t.call(api.likeAdd, { post_id: postId, client_id: newClientId('push') }, { ticket })).data();
  const postOf = async (ticket: string) =>
    (await ctx.t.call<{ id: number }>(api.postAdd, { content: '等着被赞的动态', channel_id: [1], client_id: newClientId('push') }, { ticket })).data().id;

  it('pushes a new notice, signed, saying who did what and where a tap goes; a newer actor again, a read not', async () => {
    const author = await subscribed('author');
    const postId = await postOf(author.ticket);
    const fan = await ctx.t.login(freshPhone());
    await ctx.t.call(api.nickUpdate, { nick: '推送测试者', client_id: newClientId('push') }, { ticket: fan.ticket });
    await like(fan.ticket, postId);
    await vi.waitFor(() => expect(deliveredTo(author.path)).toHaveLength(1), { timeout: ARRIVES_WITHIN_MS });
    const [first] = deliveredTo(author.path);
    expect(first!.payload).toEqual({ title: '推送测试者 赞了你的动态', body: '等着被赞的动态', url: `/message/detail/${postId}`, tag: expect.stringMatching(/^notice-\d+$/) });
    const { public_key } = (await ctx.t.call<{ public_key: string }>(api.pushKey, {})).data();
    expect(first!.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${public_key}$`));
    expect(first!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(first!.headers.ttl)).toBeGreaterThan(0);

    const second = await ctx.t.login(freshPhone());
    await like(second.ticket, postId);
    await vi.waitFor(() => expect(deliveredTo(author.path)).toHaveLength(2), { timeout: ARRIVES_WITHIN_MS });
    expect(deliveredTo(author.path)[1]!.payload).toMatchObject({ title: expect.stringMatching(/ 等 2 人 赞了你的动态$/), tag: first!.payload.tag });

    await ctx.t.call(api.noticeRead, { client_id: newClientId('push') }, { ticket: author.ticket });
    // Once a later notice of another user has been pushed, the read's event has been heard and passed.
    const other = await subscribed('other');
    await like(author.ticket, await postOf(other.ticket));
    await vi.waitFor(() => expect(deliveredTo(other.path)).toHaveLength(1), { timeout: ARRIVES_WITHIN_MS });
    expect(deliveredTo(author.path)).toHaveLength(2);
  }, 120_000);

  it('is pushed once when two processes hear the notice', async () => {
    const twin = await createTestApp(ctx.database, { env: { PUSH_SERVICE_HOSTS: '127.0.0.1' }, pushAgent: trustingAgent() });
    try {
      await twin.app.live.listenTo(ctx.database);
      const author = await subscribed('twice');
      const fan = await ctx.t.login(freshPhone());
      await ctx.t.call(api.followUser, { user_id: author.uid, client_id: newClientId('push') }, { ticket: fan.ticket });
      await vi.waitFor(() => expect(deliveredTo(author.path)).toHaveLength(1), { timeout: ARRIVES_WITHIN_MS });
      await Promise.all([ctx.t.app.push.settled(), twin.app.push.settled()]);
      expect(deliveredTo(author.path)).toHaveLength(1);
      expect(deliveredTo(author.path)[0]!.payload).toMatchObject({ title: expect.stringMatching(/ 关注了你$/), url: `/usercenter/${fan.uid}` });
    } finally {
      await twin.close();
    }
  }, 120_000);

  it('drops a subscription the push service says is gone, and the device’s at logout', async () => {
    const gone = await subscribed('gone');
    answer = (path) => (path === gone.path ? 410 : 201);
    const fan = await ctx.t.login(freshPhone());
    await ctx.t.call(api.followUser, { user_id: gone.uid, client_id: newClientId('push') }, { ticket: fan.ticket });
    await vi.waitFor(async () => expect(await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, gone.uid))).toEqual([]), {
      timeout: ARRIVES_WITHIN_MS,
    });
    answer = () => 201;

    const leaving = await subscribed('leaving');
    await ctx.t.call(api.logout, {}, { ticket: leaving.ticket });
    expect(await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, leaving.uid))).toEqual([]);
  }, 120_000);

  it('sends to no address outside PUSH_SERVICE_HOSTS', async () => {
    const user = await ctx.t.login(freshPhone());
    const elsewhere = browserSubscription('https://10.0.0.1', 'internal');
    const refused = await ctx.t.call(api.pushSubscribe, elsewhere.json, { ticket: user.ticket });
    expect(codeOf(refused)).toBe(ErrorCode.BadRequest);
    const plain = browserSubscription(base.replace('https:', 'http:'), 'plain');
    expect(codeOf(await ctx.t.call(api.pushSubscribe, plain.json, { ticket: user.ticket }))).toBe(ErrorCode.BadRequest);
  }, 60_000);
});
