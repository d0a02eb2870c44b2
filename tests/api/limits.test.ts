/**
 * Abuse limits and the keeping of idempotency keys, on PostgreSQL (behaviour: one engine):
 * login codes per address per hour as set (LOGIN_CODES_PER_ADDRESS_PER_HOUR), writes per user per minute (-2005) counted in the database and so shared by every
 * API process, replays of answered client_ids not counted, the daily caps (-2006) counted only
 * for writes that happened, and keys kept at least 24 hours.
 */
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { idempotencyKeys, rateLimits } from '../../src/server/db/schema.ts';
import { chinaDay, hitDailyCap } from '../../src/server/services/limits/daily-caps.ts';
import { cleanupExpired, IDEMPOTENCY_KEEP_HOURS } from '../../src/server/services/once.ts';
import { codeOf, createTestApp, errorOf, newClientId, phoneSource, testAppFor, behaviourDatabases } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

describe('chinaDay', () => {
  it('is the calendar day in China Standard Time (UTC+8)', () => {
    expect(chinaDay(new Date('2026-11-20T15:59:59Z'))).toBe('2026-11-20');
    expect(chinaDay(new Date('2026-11-20T16:00:00Z'))).toBe('2026-11-21');
  });
});

describe.each(behaviourDatabases)('limits on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560006');

  it('limits login codes per address to LOGIN_CODES_PER_ADDRESS_PER_HOUR across API processes; the phone keeps its own window', async () => {
    const env = { LOGIN_CODES_PER_ADDRESS_PER_HOUR: '3' };
    const [a, b] = [await createTestApp(app.database, { env }), await createTestApp(app.database, { env })];
    const wide = await createTestApp(app.database, { env: { LOGIN_CODES_PER_ADDRESS_PER_HOUR: '25' } });
    try {
      const ask = (t: typeof a, address: string, cellphone = freshPhone()) => t.call(api.loginCode, { cellphone }, { remoteAddress: address }).then(codeOf);
      const few: (number | undefined)[] = [];
      for (let i = 0; i < 4; i++) few.push(await ask(i % 2 ? b : a, '198.51.100.31'));
      expect(few).toEqual([undefined, undefined, undefined, -2005]);
      // Raised for many users behind one address (a NAT): more than the default 20.
      const many: (number | undefined)[] = [];
      for (let i = 0; i < 26; i++) many.push(await ask(wide, '198.51.100.32'));
      expect(many.slice(0, 25).every((code) => code === undefined)).toBe(true);
      expect(many[25]).toBe(-2005);
      // One phone still waits for its resend window, from an address with room.
      const phone = freshPhone();
      expect(await ask(wide, '198.51.100.33', phone)).toBeUndefined();
      expect(await ask(wide, '198.51.100.33', phone)).toBe(-2005);
    } finally {
      await Promise.all([a.close(), b.close(), wide.close()]);
    }
  });

  it('answers -2005 beyond the writes per minute, across API processes, not counting replays', async () => {
    const env = { WRITE_LIMIT_PER_MINUTE: '4' };
    // Two API processes on one database.
    const [a, b] = [await createTestApp(app.database, { env }), await createTestApp(app.database, { env })];
    try {
      const me = await a.login(freshPhone());
      const comment = { post_id: 41, content: '限流前的评论', client_id: newClientId('limit') };
      expect(codeOf(await a.call(api.commentAdd, comment, { ticket: me.ticket }))).toBeUndefined();
      expect(codeOf(await b.call(api.likeAdd, { post_id: 41 }, { ticket: me.ticket }))).toBeUndefined();
      expect(codeOf(await a.call(api.followUser, { user_id: 2 }, { ticket: me.ticket }))).toBeUndefined();
      expect(codeOf(await b.call(api.likeCancel, { post_id: 41 }, { ticket: me.ticket }))).toBeUndefined();
      const fifth = await a.call(api.followChannel, { channel_id: 2 }, { ticket: me.ticket });
      expect(errorOf(fifth.body)).toEqual({ code: -2005, msg: '请求频繁' });
      expect(codeOf(await b.call(api.commentAdd, { ...comment, client_id: newClientId('limit') }, { ticket: me.ticket }))).toBe(-2005);
      // A replay of an answered client_id is answered, and not counted.
      expect(codeOf(await b.call(api.commentAdd, comment, { ticket: me.ticket }))).toBeUndefined();
      // Another user has a limit of their own.
      const other = await b.login(freshPhone());
      expect(codeOf(await b.call(api.likeAdd, { post_id: 41 }, { ticket: other.ticket }))).toBeUndefined();
      // The next minute starts a new count.
      await app.database.db
        .update(rateLimits)
        .set({ windowStart: sql`${rateLimits.windowStart} - interval '61 seconds'` })
        .where(eq(rateLimits.key, `write:user:${me.uid}`));
      expect(codeOf(await a.call(api.followChannel, { channel_id: 2 }, { ticket: me.ticket }))).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('caps a daily kind per user (the helper post/add will use); a rolled-back write is not counted', async () => {
    const me = await app.t.login(freshPhone());
    const db = app.database.db;
    const hit = () => db.transaction((tx) => hitDailyCap(tx, 'post', me.uid, 2));
    await hit();
    await expect(
      db.transaction(async (tx) => {
        await hitDailyCap(tx, 'post', me.uid, 2);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await hit();
    await expect(hit()).rejects.toMatchObject({ code: -2006, message: '今日操作已达上限' });
    // Tomorrow (China Standard Time) is a new count.
    const tomorrow = new Date(Date.now() + 86_400_000);
    await db.transaction((tx) => hitDailyCap(tx, 'post', me.uid, 2, tomorrow));
    // Complaints are counted apart from posts.
    await db.transaction((tx) => hitDailyCap(tx, 'complain', me.uid, 2));
  });

  it(`keeps idempotency keys at least ${IDEMPOTENCY_KEEP_HOURS} hours, then cleans them up with ended rate-limit windows`, async () => {
    const me = await app.t.login(freshPhone());
    const db = app.database.db;
    const body = { post_id: 42, content: '会被保留的幂等键', client_id: newClientId('keep') };
    const original = (await app.t.call(api.commentAdd, body, { ticket: me.ticket })).data();
    const age = (hours: number) =>
      db
        .update(idempotencyKeys)
        .set({ createdAt: sql`now() - make_interval(secs => ${Math.round(hours * 3600)})` })
        .where(and(eq(idempotencyKeys.userId, me.uid), eq(idempotencyKeys.clientId, body.client_id)));
    const keyCount = async () =>
      Number(
        (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from idempotency_keys where user_id = ${me.uid} and client_id = ${body.client_id}`))[0]!
          .n,
      );

    await age(IDEMPOTENCY_KEEP_HOURS - 0.1);
    await db.insert(rateLimits).values([
      { key: `test:ended:${me.uid}`, windowStart: new Date(Date.now() - 4 * 86_400_000), count: 3 },
      { key: `test:live:${me.uid}`, windowStart: new Date(), count: 3 },
    ]);
    await cleanupExpired(db);
    expect(await keyCount()).toBe(1);
    // Still answered as the original.
    expect((await app.t.call(api.commentAdd, body, { ticket: me.ticket })).data()).toEqual(original);
    const windows = await queryRows<{ key: string }>(db, sql`select key from rate_limits where key like ${`test:%:${me.uid}`} order by key`);
    expect(windows.map((w) => w.key)).toEqual([`test:live:${me.uid}`]);

    await age(IDEMPOTENCY_KEEP_HOURS + 0.1);
    await cleanupExpired(db);
    expect(await keyCount()).toBe(0);
  });

  it('deletes expired keys and ended windows on its own, in batches one after another while they come back full', async () => {
    const me = await app.t.login(freshPhone());
    const db = app.database.db;
    const expired = 1_200;
    await db.insert(idempotencyKeys).values(
      Array.from({ length: expired }, (_, i) => ({
        userId: me.uid,
        kind: 'commentAdd',
        clientId: newClientId(`expired-${i}`),
        requestHash: 'h',
        result: {},
        createdAt: new Date(Date.now() - (IDEMPOTENCY_KEEP_HOURS + 1) * 3_600_000),
      })),
    );
    await db.insert(rateLimits).values({ key: `test:ended-housekeeping:${me.uid}`, windowStart: new Date(Date.now() - 4 * 86_400_000), count: 3 });
    const left = async () =>
      (
        await queryRows<{ keys: number; windows: number }>(
          db,
          sql`select (select count(*)::int from idempotency_keys where user_id = ${me.uid} and client_id like 'expired-%') as keys,
            (select count(*)::int from rate_limits where key = ${`test:ended-housekeeping:${me.uid}`}) as windows`,
        )
      )[0]!;
    expect(await left()).toEqual({ keys: expired, windows: 1 });
    // An app whose housekeeping starts at once deletes them all without a write: its batches one
    // after another while they come back full, not an hour apart.
    const keeper = await createTestApp(app.database, { cleanup: { firstAfterMs: 0, everyMs: 3_600_000 } });
    try {
      await expect.poll(left, { timeout: 20_000, interval: 50 }).toEqual({ keys: 0, windows: 0 });
    } finally {
      await keeper.close();
    }
  });
});
