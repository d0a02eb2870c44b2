/**
 * Scale-out: two API server processes on one PostgreSQL database behind a
 * round-robin proxy, as README's deployment describes. Whatever process answers:
 *
 * - a session made on one is a session on the other, and a logout on one ends it on both (also
 *   for the reads of posts, which remember a live ticket);
 * - 60 trials of two simultaneous logins of one phone on one device kind, and 10 at once,
 *   leave exactly one live ticket each time (the 452 mutex);
 * - 60 parallel wrong codes count as 60 tries: 5 compared, the rest refused, the right code
 *   refused after them; codes per address are limited across both;
 * - the write limit and exactly-once writes (10 replays at once make one comment) hold;
 * - what the viewer did (a like, a follow, a poll choice), each process keeping their marks in
 *   memory, shows on both as soon as it is made through either.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { LOGIN_CODE_MAX_TRIES } from '../../src/shared/constants.ts';
import type { Comment, Post } from '../../src/shared/schemas.ts';
import type { Database } from '../../src/server/db/client.ts';
import { loginCodes, tickets, users } from '../../src/server/db/schema.ts';
import { newClientId, phoneSource } from '../support/api.ts';
import { openPostgresTestDatabase, queryRows } from '../support/db.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';
import { postWithVote } from './fixtures.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const WRITE_LIMIT = 20;

let opened: { database: Database; url: string; stop(): Promise<void> };
let servers: ServerProcess[] = [];
let proxy: RoundRobinProxy;
const freshPhone = phoneSource('1570009');
let addresses = 0;
/** A client address of its own (X-Forwarded-For through the proxy), so that the per-address code limit stays out of the way. */
const freshAddress = () => `10.5.${Math.floor(++addresses / 250)}.${addresses % 250}`;

beforeAll(async () => {
  opened = await openPostgresTestDatabase();
  const env = {
    DATABASE_URL: opened.url,
    TRUST_PROXY: 'true',
    LOGIN_CODE_RESEND_SECONDS: '0',
    WRITE_LIMIT_PER_MINUTE: String(WRITE_LIMIT),
  };
  servers = await Promise.all([startServerProcess({ env }), startServerProcess({ env })]);
  proxy = await startRoundRobinProxy(servers.map((server) => server.url));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await Promise.all(servers.map((server) => server.stop()));
  await removeServerBundle();
  await opened?.database.close();
  await opened?.stop();
});

/** A call as the app logged in by `login` makes it: its ticket as the Ticket header with its Device-Id. */
const call = <T = unknown>(path: string, body: unknown, options: { ticket?: string; address?: string } = {}) =>
  callOver<T>(proxy.url, path, body, {
    headers: { 'x-forwarded-for': options.address ?? freshAddress(), ...(options.ticket ? appHeaders(options.ticket) : {}) },
  });
const appHeaders = (ticket: string) => ({ ticket, 'device-id': 'scale-out-device' });

/** How many codes each process has logged for a phone. */
const codeLines = (phone: string) => servers.map((server) => [...server.output().matchAll(new RegExp(`login code for ${phone}: (\\d{6})`, 'g'))].map((m) => m[1]!));

/** Asks for a code and returns it, read from the log of whichever process sent it. */
async function requestCode(phone: string): Promise<string> {
  const before = codeLines(phone).map((lines) => lines.length);
  const answer = await call(api.loginCode.path, { cellphone: phone });
  if (answer.body.code !== 0) throw new Error(`no code for ${phone}: ${JSON.stringify(answer.body)}`);
  for (let i = 0; i < 200; i++) {
    const now = codeLines(phone);
    const grown = now.findIndex((lines, index) => lines.length > before[index]!);
    if (grown >= 0) return now[grown]!.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the code for ${phone} never appeared in a log`);
}

/** A login as an app sends it (with its Device-Id), so that the answer carries the ticket. */
const login = (phone: string, code: string, kind: 'pc' | 'mobile' = 'pc') =>
  callOver<{ ticket: string; uid: number }>(proxy.url, api.login.path, { cellphone: phone, code, device_kind: kind }, {
    headers: { 'x-forwarded-for': freshAddress(), 'device-id': 'scale-out-device' },
  });

async function liveTickets(userId: number, kind: 'pc' | 'mobile'): Promise<number> {
  const rows = await opened.database.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.userId, userId), eq(tickets.deviceKind, kind), isNull(tickets.endedAt), gt(tickets.expiresAt, new Date())));
  return rows.length;
}

async function userIdOf(phone: string): Promise<number> {
  const [row] = await opened.database.db.select({ id: users.id }).from(users).where(eq(users.cellphone, phone));
  return row!.id;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two API processes behind a round-robin proxy on one PostgreSQL', () => {
  it('share sessions: logged in on one, known on the other; logged out on one, out on both', async () => {
    const phone = freshPhone();
    const { ticket } = (await login(phone, await requestCode(phone))).body.data!;
    const before = [...proxy.served];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${proxy.url}${api.auth.path}?t=${i}`, { headers: appHeaders(ticket) });
      expect(((await response.json()) as { code: number }).code).toBe(0);
    }
    expect(proxy.served.every((count, i) => count > before[i]!)).toBe(true);
    // The reads of posts remember a live ticket on each process (http/auth.ts): the follow tab, twice on each.
    expect((await call(api.followChannel.path, { channel_id: 1 }, { ticket })).body.code).toBe(0);
    const followTab = () => call<{ list: unknown[] }>(api.channelPosts.path, { tab: 'follow' }, { ticket });
    for (let i = 0; i < 4; i++) expect((await followTab()).body.data?.list.length).toBeGreaterThan(0);
    expect((await call(api.logout.path, {}, { ticket })).body.code).toBe(0);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${proxy.url}${api.auth.path}?t=x${i}`, { headers: appHeaders(ticket) });
      expect(((await response.json()) as { error?: { code: number } }).error?.code).toBe(-2000);
    }
    for (let i = 0; i < 2; i++) expect((await followTab()).body).toMatchObject({ error: { code: -2000 } });
  });

  it('marks what the viewer did on whichever process reads: a like, a follow, a poll choice and an unlike made through one show on both', async () => {
    const phone = freshPhone();
    const { ticket } = (await login(phone, await requestCode(phone))).body.data!;
    const poll = await postWithVote(opened.database.db, false, 0);
    const detail = async () => (await call<Post>(api.postDetail.path, { post_id: poll.postId }, { ticket })).body.data!;
    /** The post as each process shows it to the viewer (two reads in a row, one on each): liked, author followed, voted, first option chosen. */
    const onBoth = async () => {
      const before = [...proxy.served];
      const seen = [await detail(), await detail()];
      expect(proxy.served.map((count, i) => count - before[i]!)).toEqual([1, 1]);
      return seen.map((post) => [post.is_like, post.user.is_follow, post.vote!.is_voted, post.vote!.options[0]!.is_voted]);
    };
    const write = async (path: string, body: object) => expect((await call(path, { client_id: newClientId('marks'), ...body }, { ticket })).body.code).toBe(0);
    // Each process keeps the viewer's marks once read (services/viewer-marks.ts); every change below is made through one of them.
    expect(await onBoth()).toEqual([[false, false, false, false], [false, false, false, false]]);
    await write(api.likeAdd.path, { post_id: poll.postId });
    expect(await onBoth()).toEqual([[true, false, false, false], [true, false, false, false]]);
    await write(api.followUser.path, { user_id: (await detail()).user.uid });
    expect(await onBoth()).toEqual([[true, true, false, false], [true, true, false, false]]);
    await write(api.voteSubmit.path, { post_id: poll.postId, option_ids: [poll.options[0]] });
    expect(await onBoth()).toEqual([[true, true, true, true], [true, true, true, true]]);
    await write(api.likeCancel.path, { post_id: poll.postId });
    expect(await onBoth()).toEqual([[false, true, true, true], [false, true, true, true]]);
  });

  it("keeps a viewer's own like over their marks only when nothing changed them meanwhile through the other process", async () => {
    const phone = freshPhone();
    const { ticket } = (await login(phone, await requestCode(phone))).body.data!;
    const [x, y] = (await call<{ list: Post[] }>(api.channelPosts.path, { tab: 'all', size: 2 }, { ticket })).body.data!.list.map((post) => post.id);
    /** Which process served `send` (the proxy takes them by turns). */
    const servedBy = async (send: () => Promise<unknown>) => {
      const before = [...proxy.served];
      await send();
      return proxy.served.findIndex((count, i) => count > before[i]!);
    };
    const write = (path: string, postId: number) => async () =>
      expect((await call(path, { client_id: newClientId('own-like'), post_id: postId }, { ticket })).body.code).toBe(0);
    const liked = (postId: number) => async () => (await call<Post>(api.postDetail.path, { post_id: postId }, { ticket })).body.data!.is_like;
    await write(api.likeAdd.path, x!)();
    // Both processes keep the viewer's marks with x liked.
    expect([await liked(x!)(), await liked(x!)()]).toEqual([true, true]);
    // x unliked through one, then y liked through the other: the second's like saw the marks moved
    // by the first, so it keeps nothing of its own and the next page reads them again.
    const unliking = await servedBy(write(api.likeCancel.path, x!));
    const liking = await servedBy(write(api.likeAdd.path, y!));
    expect(liking).not.toBe(unliking);
    let seen: boolean | undefined;
    expect(await servedBy(async () => (seen = await liked(x!)()))).toBe(unliking);
    expect(seen).toBe(false);
    expect(await servedBy(async () => (seen = await liked(x!)()))).toBe(liking);
    expect(seen).toBe(false);
    expect([await liked(y!)(), await liked(y!)()]).toEqual([true, true]);
  });

  it('leaves exactly one live ticket after each of 60 trials of two simultaneous logins of one phone on one device kind', { timeout: 120_000 }, async () => {
    const phone = freshPhone();
    await login(phone, await requestCode(phone));
    const userId = await userIdOf(phone);
    const bad: string[] = [];
    let bothLoggedIn = 0;
    for (let trial = 0; trial < 60; trial++) {
      // Two codes: the newer is checked first; once it is spent, the older one is the newest.
      const older = await requestCode(phone);
      const newer = await requestCode(phone);
      const [first, second] = await Promise.all([login(phone, newer), pause(trial % 8).then(() => login(phone, older))]);
      if (first.body.code === 0 && second.body.code === 0) bothLoggedIn++;
      const live = await liveTickets(userId, 'pc');
      if (live !== 1) bad.push(`trial ${trial}: ${live} live tickets`);
    }
    console.log(`scale-out: 60 trials of two logins at once, both logged in ${bothLoggedIn} times; bad trials: ${bad.length}`);
    expect(bad).toEqual([]);
    expect(bothLoggedIn).toBeGreaterThan(0);
  });

  it('leaves exactly one live ticket after ten logins at once', { timeout: 180_000 }, async () => {
    // A trial proves something only when several of the ten logins succeed with their tickets
    // made at nearly the same time. Only the newest unspent code is right, so logins sent all at
    // once mostly find theirs not yet the newest; spaced a few ms apart, newest first, each finds
    // its code the newest just as the one before is spending its own. The spacing varies by
    // trial (0-7 ms, as in the two-login test), up to 16 trials, until one has several succeed.
    const overlapping: number[] = [];
    for (let trial = 0; trial < 16 && overlapping.length === 0; trial++) {
      const phone = freshPhone();
      await login(phone, await requestCode(phone), 'mobile');
      const userId = await userIdOf(phone);
      const issued: string[] = [];
      for (let i = 0; i < 10; i++) issued.push(await requestCode(phone));
      const spacing = trial % 8;
      const answers = await Promise.all(issued.reverse().map((code, i) => pause(i * spacing).then(() => login(phone, code, 'mobile'))));
      const succeeded = answers.filter((answer) => answer.body.code === 0).length;
      console.log(`scale-out: ten logins at once (trial ${trial + 1}, ${spacing} ms apart), ${succeeded} logged in`);
      expect(await liveTickets(userId, 'mobile')).toBe(1);
      if (succeeded > 1) overlapping.push(succeeded);
    }
    expect(overlapping).toHaveLength(1);
  });

  it('counts 60 parallel wrong codes as 60 tries on both processes, and refuses the right code after them', async () => {
    const phone = freshPhone();
    const code = await requestCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const before = [...proxy.served];
    const answers = await Promise.all(Array.from({ length: 60 }, () => login(phone, wrong)));
    expect(proxy.served.every((count, i) => count >= before[i]! + 30)).toBe(true);
    const errors = answers.map((answer) => answer.body.error?.code);
    expect(errors.filter((c) => c === -3007)).toHaveLength(LOGIN_CODE_MAX_TRIES);
    expect(errors.filter((c) => c === -3005)).toHaveLength(60 - LOGIN_CODE_MAX_TRIES);
    const [row] = await opened.database.db.select({ tries: loginCodes.tries }).from(loginCodes).where(eq(loginCodes.cellphone, phone));
    expect(row!.tries).toBe(60);
    expect((await login(phone, code)).body.error?.code).toBe(-3005);
  });

  it('limits login codes per address across both processes', async () => {
    const address = freshAddress();
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push((await call(api.loginCode.path, { cellphone: freshPhone() }, { address })).body.error?.code);
    expect(answers.slice(0, 20)).toEqual(Array(20).fill(undefined));
    expect(answers[20]).toBe(-2005);
  });

  it('holds exactly-once writes (ten replays at once make one comment) and the write limit across both processes', async () => {
    const phone = freshPhone();
    const { ticket } = (await login(phone, await requestCode(phone))).body.data!;
    const body = { post_id: 12, content: '两个进程同时收到的评论', client_id: newClientId('scale') };
    const answers = await Promise.all(Array.from({ length: 10 }, () => call<Comment>(api.commentAdd.path, body, { ticket })));
    const ids = new Set(answers.map((answer) => answer.body.data?.id));
    expect(ids.size, JSON.stringify(answers.map((a) => a.body))).toBe(1);
    const rows = await queryRows<{ n: number }>(opened.database.db, sql`select count(*)::int as n from comments where content = ${body.content}`);
    expect(rows[0]!.n).toBe(1);

    // Another user's writes, alternating between the processes: the limit is one count.
    const writer = freshPhone();
    const other = (await login(writer, await requestCode(writer))).body.data!;
    const results: (number | undefined)[] = [];
    for (let i = 0; i <= WRITE_LIMIT; i++) results.push((await call(api.likeAdd.path, { post_id: 12 + (i % 3) }, { ticket: other.ticket })).body.error?.code);
    expect(results).toEqual([...Array(WRITE_LIMIT).fill(undefined), -2005]);
  });
});
