/**
 * The authorization matrix, on PostgreSQL (behaviour: one engine): every write of the
 * route table, the image upload and the image-style ticket delete, called by every kind of
 * caller: a visitor; the owner and another user (on the owner's post, comment or note), each by
 * cookie (a browser's login) and by Ticket + Device-Id headers (an app's login, on a phone);
 * a ticket ended by the login mutex (452), a forged
 * one and the owner's ticket with another Device-Id, each by cookie and by headers where that
 * differs; and the owner's cookie sent from another site. The moderators' calls refuse every
 * logged-in caller here (-1006: none is a moderator). The test prints the table and asserts
 * every cell; a refused cell changes no row of the database (bookkeeping aside: rate-limit
 * windows, login-code tries).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { OTHER_PATHS, routes, TICKET_COOKIE, type EndpointName } from '../../src/shared/endpoints.ts';
import type { Envelope } from '../../src/shared/envelope.ts';
import type { Comment, Note, Post } from '../../src/shared/schemas.ts';
import type { Database } from '../../src/server/db/client.ts';
import { lookupTicket } from '../../src/server/services/sessions.ts';
import { createTestApp, newClientId, phoneSource, behaviourDatabases, type TestApp } from '../support/api.ts';
import { installChangeCounter } from '../support/changes.ts';
import { queryRows } from '../support/db.ts';
import { makePng, multipart } from '../support/images.ts';
import { SAMPLE_PUSH_SUBSCRIPTION } from '../support/samples.ts';

const CALLERS = [
  'visitor',
  'owner/cookie',
  'owner/headers',
  'other/cookie',
  'other/headers',
  'ended/cookie',
  'ended/headers',
  'forged/cookie',
  'forged/headers',
  'owner/wrong-device',
  'owner/cross-site',
] as const;
type Caller = (typeof CALLERS)[number];

/** What a cell answered: ok, 452, or the error code; for the ticket delete, whether the owner's ticket survived. */
type Outcome = string;

type Row = EndpointName | 'uploadImage' | 'ticketDelete';
const WRITES = (Object.keys(routes) as EndpointName[]).filter((name) => routes[name].kind === 'write');
const ROWS: Row[] = [...WRITES, 'uploadImage', 'ticketDelete'];

/** Writes on an object that belongs to its owner: another user is refused. */
const OWNED: Partial<Record<Row, Outcome>> = { postDelete: '-1006', commentDelete: '-1006', noteUpdate: '-1005' };

/** The moderators' calls: no caller of the matrix is one, so every logged-in caller is refused. */
const moderatorsOnly = (row: Row) => row in routes && routes[row as EndpointName].path.startsWith('/serv/v1/moderation/');

function expected(row: Row, caller: Caller): Outcome {
  if (row === 'ticketDelete') {
    // The owner's live ticket is named in the query: only its own device ends it.
    return caller === 'owner/cookie' || caller === 'owner/headers' ? 'ended' : 'kept';
  }
  const auth = row === 'uploadImage' ? 'required' : routes[row].auth;
  const [who, via] = caller.split('/') as [string, string | undefined];
  // A cookie-authenticated write from another site never gets to its handler.
  if (via === 'cross-site') return '-1006';
  if (auth === 'none') return 'ok';
  if (who === 'ended' && via !== undefined) return '452';
  if (who === 'visitor' || who === 'forged' || via === 'wrong-device') return auth === 'required' ? '-2000' : 'ok';
  if (moderatorsOnly(row)) return '-1006';
  if (who === 'other') return OWNED[row] ?? 'ok';
  return 'ok';
}

describe.each(behaviourDatabases)('the authorization matrix on $name', ({ name, open }) => {
  let opened: { database: Database; stop(): Promise<void> };
  let t: TestApp;
  let changes: () => Promise<number>;
  const freshPhone = phoneSource(name === 'PGlite' ? '1570007' : '1570008');
  const phones = { owner: freshPhone(), other: freshPhone(), ended: freshPhone(), author: freshPhone() };
  type Session = { ticket: string; uid: number; deviceId: string };
  const sessions = {} as Record<'owner' | 'other' | 'ended' | 'author', Session>;
  /** The same users logged in as an app (mobile), whose tickets travel as headers. */
  const apps = {} as Record<'owner' | 'other' | 'ended', Session>;
  const appDevice = (who: string) => ({ deviceId: `app-device-${who}` });
  let png: Buffer;
  let nicks = 0;

  beforeAll(async () => {
    opened = await open();
    // Limits have tests of their own; here every cell must reach its handler.
    t = await createTestApp(opened.database, { env: { WRITE_LIMIT_PER_MINUTE: '100000', DAILY_POST_LIMIT: '100000', LOGIN_CODE_RESEND_SECONDS: '0' } });
    for (const who of ['owner', 'other', 'author'] as const) sessions[who] = await t.login(phones[who], 'pc');
    for (const who of ['owner', 'other'] as const) apps[who] = await t.login(phones[who], 'mobile', appDevice(who));
    // Each login ends the one before by the mutex: both ended tickets answer 452 from now on.
    sessions.ended = await t.login(phones.ended, 'mobile');
    apps.ended = await t.login(phones.ended, 'mobile', appDevice('ended'));
    await t.login(phones.ended, 'mobile');
    png = await makePng(6, 4);
    changes = await installChangeCounter(opened.database.db);
  });
  afterAll(async () => {
    await t?.close();
    await opened?.database.close();
    await opened?.stop();
  });

  /** Logs a user in again when a cell (logout, ticket delete) ended their ticket. */
  async function keepLoggedIn(who: 'owner' | 'other' | 'author'): Promise<void> {
    if ((await lookupTicket(opened.database.db, sessions[who].ticket)).state !== 'valid') sessions[who] = await t.login(phones[who], 'pc');
    if (who !== 'author' && (await lookupTicket(opened.database.db, apps[who].ticket)).state !== 'valid') {
      apps[who] = await t.login(phones[who], 'mobile', appDevice(who));
    }
  }

  const authorPost = async (extra: Record<string, unknown> = {}) =>
    (await t.call<Post>(api.postAdd, { content: '矩阵测试的动态', channel_id: [1], client_id: newClientId('matrix'), ...extra }, { ticket: sessions.author.ticket })).data();

  /** A fresh unread notice of the owner's: the author's comment on a new post of theirs. */
  async function ownerNotice(): Promise<number> {
    const post = (await t.call<Post>(api.postAdd, { content: '主人的动态', channel_id: [2], client_id: newClientId('matrix') }, { ticket: sessions.owner.ticket })).data();
    await t.call(api.commentAdd, { post_id: post.id, content: '给主人的评论', client_id: newClientId('matrix') }, { ticket: sessions.author.ticket });
    const [row] = await queryRows<{ id: number }>(opened.database.db, sql`select id::int as id from notices where post_id = ${post.id}`);
    lastOwnerNotice = row!.id;
    return row!.id;
  }
  let lastOwnerNotice = 0;
  const stillUnread = async (id: number) =>
    (await queryRows<{ unread: boolean }>(opened.database.db, sql`select unread from notices where id = ${id}`))[0]?.unread === true;

  /** The body of one cell: fresh objects of the owner where the call acts on one. */
  async function bodyOf(row: Row): Promise<unknown> {
    const owner = sessions.owner.ticket;
    switch (row) {
      case 'loginCode':
        return { cellphone: freshPhone() };
      case 'login': {
        const phone = freshPhone();
        await t.call(api.loginCode, { cellphone: phone }, { remoteAddress: `10.6.${Math.floor(Math.random() * 250)}.1` });
        return { cellphone: phone, code: t.codes.get(phone), device_kind: 'mobile' };
      }
      case 'postDelete':
        return { post_id: (await t.call<Post>(api.postAdd, { content: '主人的动态', channel_id: [2], client_id: newClientId('matrix') }, { ticket: owner })).data().id };
      case 'commentDelete':
        return { comment_id: (await t.call<Comment>(api.commentAdd, { post_id: 5, content: '主人的评论', client_id: newClientId('matrix') }, { ticket: owner })).data().id };
      case 'noteUpdate':
        return { id: (await t.call<Note>(api.noteUpdate, { content: '主人的笔记' }, { ticket: owner })).data().id, content: '改写笔记' };
      case 'voteSubmit': {
        const post = await authorPost({ vote: { title: '投哪个', options: ['甲', '乙'] } });
        return { post_id: post.id, option_ids: [post.vote!.options[0]!.option_id], client_id: newClientId('matrix') };
      }
      case 'complainAdd':
        return { target_type: 'post', target_id: (await authorPost()).id, reason: 'spam', content: '', client_id: newClientId('matrix') };
      case 'followUser':
      case 'unfollowUser':
        return { user_id: sessions.author.uid };
      case 'noticeRead':
        // The owner's notice named by whoever calls: another user's read must leave it unread.
        return { up_to_id: await ownerNotice(), client_id: newClientId('matrix') };
      case 'noticeSettings':
        return { comment: true, client_id: newClientId('matrix') };
      case 'nickUpdate':
        // A nickname nobody has yet: each cell that may set one does.
        return { nick: `矩阵昵称${++nicks}` };
      case 'moderationHide':
      case 'moderationRestore':
      case 'moderationDismiss':
        return { target_type: 'post', target_id: (await authorPost()).id, reason: '矩阵里的理由', client_id: newClientId('matrix') };
      case 'moderationSuspend':
        return { user_id: sessions.author.uid, days: 1, reason: '矩阵里的理由', client_id: newClientId('matrix') };
      case 'moderationLift':
        return { user_id: sessions.author.uid, client_id: newClientId('matrix') };
      default: {
        const sample: Record<Row, unknown> = {
          logout: {},
          followChannel: { channel_id: 3 },
          unfollowChannel: { channel_id: 3 },
          postAdd: { content: '矩阵里写的动态', channel_id: [1], client_id: newClientId('matrix') },
          likeAdd: { post_id: 5 },
          likeCancel: { post_id: 5 },
          commentAdd: { post_id: 5, content: '矩阵里的评论', client_id: newClientId('matrix') },
          collect: { app_id: 'community-feed', events: [{ event: 'matrix_check', properties: {} }] },
          pushSubscribe: { ...SAMPLE_PUSH_SUBSCRIPTION, client_id: newClientId('matrix') },
          pushUnsubscribe: { endpoint: SAMPLE_PUSH_SUBSCRIPTION.endpoint },
        } as Record<Row, unknown>;
        return sample[row];
      }
    }
  }

  function credentialsOf(caller: Caller): { cookies: Record<string, string>; headers: Record<string, string> } {
    const [who, via] = caller.split('/') as [string, string | undefined];
    const byHeaders = via === 'headers' || via === 'wrong-device';
    const session =
      who === 'forged'
        ? { ticket: 'F'.repeat(43), deviceId: 'forged-device-01' }
        : who === 'visitor'
          ? undefined
          : (byHeaders ? apps : sessions)[who as 'owner' | 'other' | 'ended'];
    if (!session) return { cookies: {}, headers: {} };
    if (via === 'headers') return { cookies: {}, headers: { ticket: session.ticket, 'device-id': session.deviceId } };
    if (via === 'wrong-device') return { cookies: {}, headers: { ticket: session.ticket, 'device-id': 'not-the-owners-device' } };
    if (via === 'cross-site') return { cookies: { [TICKET_COOKIE]: session.ticket }, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } };
    return { cookies: { [TICKET_COOKIE]: session.ticket }, headers: {} };
  }

  async function runCell(row: Row, caller: Caller): Promise<{ outcome: Outcome; changed: number }> {
    await keepLoggedIn('owner');
    await keepLoggedIn('other');
    await keepLoggedIn('author');
    const { cookies, headers } = credentialsOf(caller);
    if (row === 'ticketDelete') {
      // The owner's ticket of the kind the caller's device holds: the app's for headers.
      const owner = caller.endsWith('/headers') || caller.endsWith('/wrong-device') ? apps.owner.ticket : sessions.owner.ticket;
      const before = await changes();
      await t.app.inject({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}?ticket=${encodeURIComponent(owner)}`, cookies, headers });
      const changed = (await changes()) - before;
      return { outcome: (await lookupTicket(opened.database.db, owner)).state === 'valid' ? 'kept' : 'ended', changed };
    }
    const body = await bodyOf(row);
    const before = await changes();
    const response =
      row === 'uploadImage'
        ? await (() => {
            const form = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: png }]);
            return t.app.inject({ method: 'POST', url: OTHER_PATHS.uploadImage, cookies, headers: { ...form.headers, ...headers }, payload: form.payload });
          })()
        : await t.app.inject({ method: 'POST', url: routes[row].path, cookies, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });
    const changed = (await changes()) - before;
    const envelope = response.json() as Envelope<unknown>;
    const outcome = response.statusCode === 452 ? '452' : envelope.code === 0 ? 'ok' : String(envelope.error.code);
    return { outcome, changed };
  }

  it('answers every write for every kind of caller as the table says, and a refusal changes nothing', { timeout: 300_000 }, async () => {
    const table: Record<string, Record<string, string>> = {};
    const wrong: string[] = [];
    for (const row of ROWS) {
      table[row] = {};
      for (const caller of CALLERS) {
        const { outcome, changed } = await runCell(row, caller);
        const want = expected(row, caller);
        const refused = outcome !== 'ok' && outcome !== 'ended';
        const mark = outcome === want && !(refused && changed !== 0) ? '' : ' ✗';
        table[row]![caller] = `${outcome}${mark}`;
        if (outcome !== want) wrong.push(`${row} as ${caller}: ${outcome}, expected ${want}`);
        if (refused && changed !== 0) wrong.push(`${row} as ${caller}: refused (${outcome}) but ${changed} rows changed`);
        // Another user naming the owner's notice is answered (their own count) and reads nothing of the owner's.
        if (row === 'noticeRead' && !caller.startsWith('owner/') && !(await stillUnread(lastOwnerNotice))) {
          wrong.push(`${row} as ${caller}: the owner's notice was marked read`);
        }
      }
    }
    console.log(`authorization matrix on ${name} (ok = done; 452; -2000 not logged in; -1006 forbidden; -1005 not found; kept/ended = the owner's ticket after the GET):`);
    console.table(table);
    expect(wrong).toEqual([]);
  });

  it('answers the moderators’ reads (queue, audit log) to no caller of the matrix: -1006 logged in, -2000 or 452 otherwise', async () => {
    const wrong: string[] = [];
    for (const caller of CALLERS.filter((c) => c !== 'owner/cross-site')) {
      for (const row of ['moderationQueue', 'moderationLog'] as const) {
        await keepLoggedIn('owner');
        await keepLoggedIn('other');
        const { cookies, headers } = credentialsOf(caller);
        const response = await t.app.inject({
          method: 'POST',
          url: routes[row].path,
          cookies,
          headers: { 'content-type': 'application/json', ...headers },
          payload: JSON.stringify({ size: 5 }),
        });
        const envelope = response.json() as Envelope<unknown>;
        const outcome = response.statusCode === 452 ? '452' : envelope.code === 0 ? 'ok' : String(envelope.error.code);
        if (outcome !== expected(row, caller)) wrong.push(`${row} as ${caller}: ${outcome}, expected ${expected(row, caller)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers the notice reads only to a logged-in caller, and only with their own notices', async () => {
    const notice = await ownerNotice();
    const wrong: string[] = [];
    // A read from another site is answered as any read (its answer stays with the browser).
    for (const caller of CALLERS.filter((c) => c !== 'owner/cross-site')) {
      for (const row of ['noticeList', 'noticeUnreadCount'] as const) {
        await keepLoggedIn('owner');
        await keepLoggedIn('other');
        const { cookies, headers } = credentialsOf(caller);
        const response = await t.app.inject({
          method: 'POST',
          url: routes[row].path,
          cookies,
          headers: { 'content-type': 'application/json', ...headers },
          payload: JSON.stringify(row === 'noticeList' ? { size: 50 } : {}),
        });
        const envelope = response.json() as Envelope<{ list?: { id: number }[] }>;
        const outcome = response.statusCode === 452 ? '452' : envelope.code === 0 ? 'ok' : String(envelope.error.code);
        const want = expected(row, caller);
        if (outcome !== want) wrong.push(`${row} as ${caller}: ${outcome}, expected ${want}`);
        if (row === 'noticeList' && envelope.code === 0) {
          const ids = (envelope.data.list ?? []).map((n) => n.id);
          const owners = caller.startsWith('owner/');
          if (ids.includes(notice) !== owners) wrong.push(`noticeList as ${caller}: the owner's notice ${owners ? 'missing' : 'shown'}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
