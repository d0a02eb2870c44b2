/**
 * Logins under concurrency and hostile input, on PGlite and on PostgreSQL, where
 * requests really run side by side:
 *
 * - the 452 mutex is atomic: two (or ten) tickets issued at once for one user and device kind
 *   leave exactly one live ticket (it ended the others, then inserted, under READ COMMITTED);
 * - the 5-try code limit counts before it compares: 60 parallel wrong codes are 60 tries, of
 *   which 5 are compared (-3007) and the rest refused (-3005); the right code is then refused;
 * - a NUL or a lone surrogate in device_id is -1004 before anything happens: the code is not
 *   spent and no user is made.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { LOGIN_CODE_MAX_TRIES } from '../../src/shared/constants.ts';
import { loginCodes, tickets, users } from '../../src/server/db/schema.ts';
import { issueTicket } from '../../src/server/services/sessions.ts';
import type { Db } from '../../src/server/db/client.ts';
import { codeOf, errorOf, isChineseMessage, phoneSource, testAppFor, testDatabases } from '../support/api.ts';

async function liveTickets(db: Db, userId: number, kind: 'pc' | 'mobile'): Promise<number> {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.userId, userId), eq(tickets.deviceKind, kind), isNull(tickets.endedAt), gt(tickets.expiresAt, new Date())));
  return rows.length;
}

describe.each(testDatabases)('logins under concurrency on $name', ({ open }) => {
  const app = testAppFor(open, { LOGIN_CODE_RESEND_SECONDS: '0' });
  const freshPhone = phoneSource('1570003');

  it('leaves exactly one live ticket after 60 trials of two tickets issued at once, and after ten at once', async () => {
    const me = await app.t.login(freshPhone(), 'pc');
    const db = app.database.db;
    const issue = () => issueTicket(db, { userId: me.uid, deviceKind: 'pc', deviceId: 'race-device-0001', via: 'cookie' });
    const bad: number[] = [];
    for (let trial = 0; trial < 60; trial++) {
      await Promise.all([issue(), issue()]);
      const live = await liveTickets(db, me.uid, 'pc');
      if (live !== 1) bad.push(live);
    }
    expect(bad, `trials that left other than one live ticket (live counts)`).toEqual([]);
    await Promise.all(Array.from({ length: 10 }, issue));
    expect(await liveTickets(db, me.uid, 'pc')).toBe(1);
    // The other kind is not touched.
    await app.t.login(await phoneOf(db, me.uid), 'mobile');
    expect(await liveTickets(db, me.uid, 'mobile')).toBe(1);
    expect(await liveTickets(db, me.uid, 'pc')).toBe(1);
  });

  it('counts 60 parallel wrong codes as 60 tries, compares 5 of them, and then refuses the right code', async () => {
    const phone = freshPhone();
    expect(codeOf(await app.t.call(api.loginCode, { cellphone: phone }, { remoteAddress: '10.7.0.1' }))).toBeUndefined();
    const code = app.t.codes.get(phone)!;
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 60 }, () => app.t.call(api.login, { cellphone: phone, code: wrong })));
    const codes = answers.map(codeOf);
    expect(codes.filter((c) => c === -3007), `compared: ${JSON.stringify(codes)}`).toHaveLength(LOGIN_CODE_MAX_TRIES);
    expect(codes.filter((c) => c === -3005)).toHaveLength(60 - LOGIN_CODE_MAX_TRIES);
    const [row] = await app.database.db.select().from(loginCodes).where(eq(loginCodes.cellphone, phone));
    expect(row!.tries).toBe(60);
    expect(codeOf(await app.t.call(api.login, { cellphone: phone, code }))).toBe(-3005);
  });

  it('refuses a NUL or a lone surrogate in device_id with -1004 before spending the code or making the user', async () => {
    for (const deviceId of ['device-\u0000-0001', 'device-\uD800-0001', 'device-\uDC00x-001']) {
      const phone = freshPhone();
      await app.t.call(api.loginCode, { cellphone: phone }, { remoteAddress: '10.7.0.2' });
      const code = app.t.codes.get(phone)!;
      const refused = await app.t.call(api.login, { cellphone: phone, code, device_id: deviceId });
      expect(refused.status).toBe(200);
      expect(errorOf(refused.body)?.code, JSON.stringify(refused.body)).toBe(-1004);
      expect(isChineseMessage(errorOf(refused.body)?.msg)).toBe(true);
      expect(await app.database.db.select().from(users).where(eq(users.cellphone, phone))).toEqual([]);
      // The code still works.
      expect(codeOf(await app.t.call(api.login, { cellphone: phone, code, device_id: 'device-good-0001' }))).toBeUndefined();
    }
  });
});

async function phoneOf(db: Db, userId: number): Promise<string> {
  const [row] = await db.select({ cellphone: users.cellphone }).from(users).where(eq(users.id, userId));
  return row!.cellphone!;
}
