import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { LOGOUT_PENDING_COOKIE, OTHER_PATHS, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import type { LoginUser } from '../../src/shared/schemas.ts';
import { loginCodes, tickets, users } from '../../src/server/db/schema.ts';
import { DEMO_MODERATOR_CELLPHONE } from '../../src/server/seed/seed.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { ageRateLimits, codeOf, errorOf, openTestApp, type CallResult, type TestApp } from '../support/api.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(() => t?.close());

let phoneCounter = 0;
/** A phone number no other test uses. */
const freshPhone = () => `1590000${String(++phoneCounter).padStart(4, '0')}`;

async function requestCode(cellphone: string, remoteAddress = '192.0.2.1') {
  return t.call<{ expires_in: number }>(api.loginCode, { cellphone }, { remoteAddress });
}

describe('login code', () => {
  it('sends a 6-digit code valid for 5 minutes and stores only its hash', async () => {
    const phone = freshPhone();
    const result = await requestCode(phone);
    expect(result.data()).toEqual({ expires_in: 300 });
    const code = t.codes.get(phone)!;
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.database.db.select().from(loginCodes).where(eq(loginCodes.cellphone, phone));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).not.toContain(code);
  });

  it('refuses a second code for the same phone within 60 s with -2005', async () => {
    const phone = freshPhone();
    await requestCode(phone);
    const again = await requestCode(phone, '192.0.2.2');
    expect(errorOf(again.body)).toEqual({ code: -2005, msg: '请求频繁' });
    await ageRateLimits(t.database, phone);
    expect((await requestCode(phone)).body.code).toBe(0);
  });

  it('limits codes per address whatever the phone', async () => {
    const address = '198.51.100.7';
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push((await requestCode(freshPhone(), address)).body.code);
    expect(answers.slice(0, 20).every((code) => code === 0)).toBe(true);
    expect(answers[20]).toBe(-1);
  });

  it('rejects a malformed phone number with a clear message', async () => {
    const result = await requestCode('12345');
    expect(errorOf(result.body)).toEqual({ code: -1004, msg: '请求参数错误：cellphone 请输入正确的手机号' });
  });
});

describe('login', () => {
  it('answers -3004 for an empty code and -3007 for a wrong one', async () => {
    const phone = freshPhone();
    await requestCode(phone);
    expect(errorOf((await t.call(api.login, { cellphone: phone, code: '' })).body)?.code).toBe(-3004);
    const wrong = t.codes.get(phone) === '000000' ? '111111' : '000000';
    expect(errorOf((await t.call(api.login, { cellphone: phone, code: wrong })).body)).toEqual({
      code: -3007,
      msg: '验证码错误',
    });
  });

  it('ends the code after 5 wrong tries: the right code then gets -3005', async () => {
    const phone = freshPhone();
    await requestCode(phone);
    const code = t.codes.get(phone)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect(errorOf((await t.call(api.login, { cellphone: phone, code: wrong })).body)?.code).toBe(-3007);
    expect(errorOf((await t.call(api.login, { cellphone: phone, code })).body)?.code).toBe(-3005);
  });

  it('answers -3005 for an expired code and for a code used already', async () => {
    const phone = freshPhone();
    await requestCode(phone);
    await t.database.db
      .update(loginCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(loginCodes.cellphone, phone));
    expect(errorOf((await t.call(api.login, { cellphone: phone, code: t.codes.get(phone) })).body)?.code).toBe(-3005);

    const other = freshPhone();
    await requestCode(other);
    const code = t.codes.get(other)!;
    expect((await t.call(api.login, { cellphone: other, code })).body.code).toBe(0);
    expect(errorOf((await t.call(api.login, { cellphone: other, code })).body)?.code).toBe(-3005);
  });

  it('creates the user on first login and sets an httpOnly SameSite=Lax ticket cookie, the ticket nowhere else for a browser', async () => {
    const phone = freshPhone();
    await requestCode(phone);
    const result = await t.call<LoginUser & { ticket?: string; device_id: string }>(api.login, {
      cellphone: phone,
      code: t.codes.get(phone),
      device_kind: 'mobile',
      device_id: 'device-abcdef12',
    });
    const user = result.data();
    expect(user).toMatchObject({ cellphone: `159****${phone.slice(-4)}`, device_id: 'device-abcdef12', student: 0, usertype: 1 });
    expect(user.nick).toBeTruthy();
    expect(user.ucode).toBeTruthy();
    // A page's scripts read the JSON: the ticket is only in the httpOnly cookie.
    expect(user).not.toHaveProperty('ticket');
    const cookie = result.response.cookies.find((c) => c.name === TICKET_COOKIE)!;
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    expect(result.response.payload).not.toContain(cookie.value);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Only the hash of the ticket is stored.
    const stored = await t.database.db.select().from(tickets).where(eq(tickets.userId, user.uid));
    expect(stored.map((row) => row.tokenHash)).toEqual([hashToken(cookie.value)]);
    // The avatar is served.
    expect((await t.app.inject({ method: 'GET', url: user.avatar })).statusCode).toBe(200);
  });

  it('answers the ticket to the mini-program and the native app, which send their Device-Id, bound to that device', async () => {
    const phone = freshPhone();
    await requestCode(phone);
    const result = await t.call<LoginUser & { ticket?: string; device_id: string }>(
      api.login,
      { cellphone: phone, code: t.codes.get(phone), device_kind: 'mobile' },
      { headers: { 'device-id': 'mini-program-0001' } },
    );
    const user = result.data();
    expect(user.ticket).toMatch(/^[\w-]{43}$/);
    expect(user.device_id).toBe('mini-program-0001');
    const ticket = user.ticket!;
    // Sent as headers from that device it logs in; from another device it is no ticket.
    expect((await t.call<LoginUser>(api.auth, { t: 1 }, { ticket, asHeaders: { deviceId: 'mini-program-0001' } })).data().uid).toBe(user.uid);
    expect(codeOf(await t.call(api.auth, { t: 1 }, { ticket, asHeaders: { deviceId: 'another-device-01' } }))).toBe(-2000);
  });
});

describe('the login user and tickets', () => {
  it('says whether the login user is a moderator (the demo seeds one), so the app can offer 内容审核', async () => {
    const moderator = await t.login(DEMO_MODERATOR_CELLPHONE);
    expect((await t.call<LoginUser>(api.auth, { t: 1 }, { ticket: moderator.ticket })).data().is_moderator).toBe(true);
    const someone = await t.login(freshPhone());
    expect((await t.call<LoginUser>(api.auth, { t: 1 }, { ticket: someone.ticket })).data().is_moderator).toBe(false);
  });

  it('answers -2000 on auth when logged out, without a redirect', async () => {
    const result = await t.call(api.auth, { t: Date.now() });
    expect(result.status).toBe(200);
    expect(errorOf(result.body)?.code).toBe(-2000);
  });

  it('authenticates by cookie (a browser) and by Ticket + Device-Id headers (an app)', async () => {
    const { ticket: browserTicket, uid } = await t.login('13800000000', 'pc');
    const byCookie = (await t.call<LoginUser>(api.auth, { t: 1 }, { ticket: browserTicket })).data();
    expect(byCookie.uid).toBe(uid);
    expect(byCookie.cellphone).toBe('138****0000');
    const { ticket, deviceId } = await t.login('13800000000', 'mobile', { deviceId: 'account-app-0001' });
    const byHeaders = (await t.call<LoginUser>(api.auth, { t: 1 }, { ticket, asHeaders: { deviceId } })).data();
    expect(byHeaders.uid).toBe(uid);
    // A Ticket header without its Device-Id is not a credential.
    const noDevice = await t.call(api.auth, {}, { headers: { ticket } });
    expect(errorOf(noDevice.body)?.code).toBe(-2000);
  });

  it('ends the other ticket of the same device kind: it gets HTTP 452 until deleted', async () => {
    const phone = freshPhone();
    const first = await t.login(phone, 'pc');
    const mobile = await t.login(phone, 'mobile');
    const second = await t.login(phone, 'pc');

    const ended = await t.call(api.auth, {}, { ticket: first.ticket });
    expect(ended.status).toBe(452);
    expect(errorOf(ended.body)?.code).toBe(-3003);
    const endedOnRead = await t.call(api.channelPosts, { tab: 'all' }, { ticket: first.ticket });
    expect(endedOnRead.status).toBe(452);

    expect((await t.call(api.auth, {}, { ticket: second.ticket })).body.code).toBe(0);
    expect((await t.call(api.auth, {}, { ticket: mobile.ticket })).body.code).toBe(0);

    const gif = await t.app.inject({ method: 'GET', url: `${OTHER_PATHS.ticketDelete}?ticket=${encodeURIComponent(first.ticket)}` });
    expect(gif.statusCode).toBe(200);
    expect(gif.headers['content-type']).toBe('image/gif');
    expect(gif.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    const afterDelete = await t.call(api.auth, {}, { ticket: first.ticket });
    expect(afterDelete.status).toBe(200);
    expect(errorOf(afterDelete.body)?.code).toBe(-2000);
  });

  it('keeps an expired ticket plainly logged out when a later login ends the others', async () => {
    const phone = freshPhone();
    const old = await t.login(phone, 'pc');
    await t.database.db
      .update(tickets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(tickets.tokenHash, hashToken(old.ticket)));
    await t.login(phone, 'pc');
    const answer = await t.call(api.auth, {}, { ticket: old.ticket });
    expect(answer.status).toBe(200);
    expect(errorOf(answer.body)?.code).toBe(-2000);
  });

  it('answers a GIF to ticket delete even for an unknown ticket or a bad query', async () => {
    for (const url of [`${OTHER_PATHS.ticketDelete}?ticket=nope`, `${OTHER_PATHS.ticketDelete}?ticket=${'x'.repeat(300)}`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/gif');
    }
  });

  it('treats an expired or unknown ticket as logged out, and a needed login as -2000', async () => {
    const { ticket } = await t.login(freshPhone(), 'pc');
    await t.database.db
      .update(tickets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(tickets.tokenHash, hashToken(ticket)));
    const expired = await t.call(api.auth, {}, { ticket });
    expect(expired.status).toBe(200);
    expect(errorOf(expired.body)?.code).toBe(-2000);
    expect(errorOf((await t.call(api.auth, {}, { ticket: 'made-up' })).body)?.code).toBe(-2000);
    expect(errorOf((await t.call(api.followChannel, { channel_id: 1 }, { ticket: 'made-up' })).body)?.code).toBe(-2000);
  });

  it('logs out: the ticket ends and the cookie is cleared', async () => {
    const { ticket } = await t.login(freshPhone(), 'mobile');
    const result = await t.call(api.logout, {}, { ticket });
    expect(result.body).toEqual({ code: 0, data: {} });
    const cleared = result.response.cookies.find((c) => c.name === TICKET_COOKIE);
    expect(cleared?.value).toBe('');
    expect(errorOf((await t.call(api.auth, {}, { ticket })).body)?.code).toBe(-2000);
    expect(errorOf((await t.call(api.logout, {})).body)?.code).toBe(-2000);
  });

  describe('a logout the browser made while the server could not hear it', () => {
    const pending = { [LOGOUT_PENDING_COOKIE]: '1' };
    const setCookie = (result: CallResult<unknown>, name: string) => result.response.cookies.find((cookie) => cookie.name === name);

    it('ends the ticket at the next request, which is a visitor\'s, and clears both cookies', async () => {
      const { ticket } = await t.login(freshPhone(), 'mobile');
      const read = await t.call(api.auth, {}, { ticket, cookies: pending });
      expect(errorOf(read.body)?.code).toBe(-2000);
      expect(setCookie(read, TICKET_COOKIE)?.value).toBe('');
      expect(setCookie(read, LOGOUT_PENDING_COOKIE)?.value).toBe('');
      // Ended for good: the cookie alone no longer logs in.
      expect(errorOf((await t.call(api.auth, {}, { ticket })).body)?.code).toBe(-2000);
      const [row] = await t.database.db.select().from(tickets).where(eq(tickets.tokenHash, hashToken(ticket)));
      expect(row?.endedReason).toBe('logout');
    });

    it('writes nothing as the user who logged out', async () => {
      const { ticket, uid } = await t.login(freshPhone(), 'pc');
      const follow = await t.call(api.followChannel, { channel_id: 1 }, { ticket, cookies: pending });
      expect(errorOf(follow.body)?.code).toBe(-2000);
      const channels = (await t.call<{ list: { channel_id: number }[] }>(api.userChannelList, { visit_user_id: uid })).data().list;
      expect(channels.map((channel) => channel.channel_id)).not.toContain(1);
    });

    it('lets the next login through with its own ticket', async () => {
      const phone = freshPhone();
      const before = await t.login(phone, 'pc');
      await ageRateLimits(t.database, phone);
      await t.call(api.loginCode, { cellphone: phone }, { remoteAddress: '192.0.2.9' });
      const login = await t.call(api.login, { cellphone: phone, code: t.codes.get(phone), device_kind: 'pc' }, { ticket: before.ticket, cookies: pending });
      expect(login.body.code).toBe(0);
      const next = setCookie(login, TICKET_COOKIE)?.value;
      expect(next).toMatch(/.+/);
      expect(next).not.toBe(before.ticket);
      expect((await t.call(api.auth, {}, { ticket: next })).body.code).toBe(0);
      expect(errorOf((await t.call(api.auth, {}, { ticket: before.ticket })).body)?.code).toBe(-2000);
    });

    it('clears a marker left without a ticket and serves the request', async () => {
      const read = await t.call(api.recommendChannelList, {}, { cookies: pending });
      expect(read.body.code).toBe(0);
      expect(setCookie(read, LOGOUT_PENDING_COOKIE)?.value).toBe('');
    });
  });

  it('tells university users from others', async () => {
    const [university] = await t.database.db.select().from(users).where(eq(users.isUniversity, true)).limit(1);
    const [other] = await t.database.db.select().from(users).where(eq(users.isUniversity, false)).limit(1);
    const yes = await t.login(university!.cellphone!, 'pc');
    const no = await t.login(other!.cellphone!, 'pc');
    expect((await t.call(api.checkUser, {}, { ticket: yes.ticket })).data()).toEqual({ result: true });
    expect((await t.call(api.checkUser, {}, { ticket: no.ticket })).data()).toEqual({ result: false });
    expect(errorOf((await t.call(api.checkUser, {})).body)?.code).toBe(-2000);
  });

  it('adds and removes followed channels by channel_id, counting followers exactly', async () => {
    const { ticket, uid } = await t.login(freshPhone(), 'pc');
    const channelsOf = async () =>
      (await t.call<{ list: { channel_id: number }[] }>(api.userChannelList, { visit_user_id: uid })).data().list.map((c) => c.channel_id);
    const followers = async () => (await t.call<{ follower_count: number }>(api.channelDetail, { channel_id: 2 })).data().follower_count;
    const before = await followers();
    expect(await channelsOf()).toEqual([]);
    expect((await t.call(api.followChannel, { channel_id: 2 }, { ticket })).data()).toEqual({ is_follow: true });
    expect((await t.call(api.followChannel, { channel_id: 2 }, { ticket })).data()).toEqual({ is_follow: true });
    expect(await channelsOf()).toEqual([2]);
    expect(await followers()).toBe(before + 1);
    expect((await t.call(api.unfollowChannel, { channel_id: 2 }, { ticket })).data()).toEqual({ is_follow: false });
    expect(await channelsOf()).toEqual([]);
    expect(await followers()).toBe(before);
    expect(errorOf((await t.call(api.followChannel, { channel_id: 4242 }, { ticket })).body)?.code).toBe(-1005);
  });

  it('recommends only channels the user does not follow yet', async () => {
    const { ticket } = await t.login('13800000000');
    const followed = new Set(
      (await t.call<{ list: { channel_id: number }[] }>(api.userChannelList, { visit_user_id: 1 })).data().list.map((c) => c.channel_id),
    );
    expect(followed.size).toBeGreaterThan(0);
    const recommended = (await t.call<{ list: { channel_id: number }[] }>(api.recommendChannelList, { size: 50 }, { ticket })).data().list;
    expect(recommended.length).toBeGreaterThan(0);
    for (const channel of recommended) expect(followed.has(channel.channel_id)).toBe(false);
  });
});
