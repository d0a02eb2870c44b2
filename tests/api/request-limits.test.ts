/**
 * Limits everywhere, on PostgreSQL (behaviour: one engine), with two API processes on
 * one database where it matters:
 *
 * - a general limit per client address and per user, counted in the database: beyond it
 *   -2005 请求频繁, whichever process answers (exact within a process; across processes once
 *   their counts reach the database, within a second); each address and each user has its own
 *   count, and the next minute starts anew;
 * - the tracking collector: at most 50 events a batch and 30 properties an event (-1004), and
 *   a cap on the bytes one address stores per hour (-2005, nothing stored); what it accepts is
 *   stored and can be read back.
 */
import { eq, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { TRACKING_MAX_EVENTS, TRACKING_MAX_PROPERTIES } from '../../src/shared/constants.ts';
import { rateLimits, trackingEvents } from '../../src/server/db/schema.ts';
import { SharedWindowCounter } from '../../src/server/services/limits/request-counter.ts';
import { codeOf, createTestApp, errorOf, phoneSource, testAppFor, behaviourDatabases } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

/**
 * Each process adds its hits to the shared window once a second while far from the limit
 * (services/limits/request-counter.ts): across processes the limit is exact once they have.
 */
const countersFlushed = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe.each(behaviourDatabases)('general request limits on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1570005');

  it('answers -2005 beyond the requests per address per minute, across two API processes', async () => {
    const env = { REQUEST_LIMIT_PER_ADDRESS: '12' };
    const [a, b] = [await createTestApp(app.database, { env }), await createTestApp(app.database, { env })];
    try {
      const read = (t: typeof a, remoteAddress: string) => t.call(api.topicList, { size: 1 }, { remoteAddress });
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(codeOf(await read(i % 2 ? a : b, '203.0.113.7')));
      expect(answers).toEqual(Array(12).fill(undefined));
      await countersFlushed();
      const refused = await read(a, '203.0.113.7');
      expect([refused.status, errorOf(refused.body)]).toEqual([200, { code: -2005, msg: '请求频繁' }]);
      expect(codeOf(await read(b, '203.0.113.7'))).toBe(-2005);
      // Another address has its own count; pictures and the page are not counted.
      expect(codeOf(await read(b, '203.0.113.8'))).toBeUndefined();
      // The next minute starts anew.
      await app.database.db
        .update(rateLimits)
        .set({ windowStart: sql`${rateLimits.windowStart} - interval '61 seconds'` })
        .where(eq(rateLimits.key, 'requests:ip:203.0.113.7'));
      expect(codeOf(await read(a, '203.0.113.7'))).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('answers -2005 beyond the requests per user per minute from any address, across two API processes', async () => {
    const env = { REQUEST_LIMIT_PER_USER: '10' };
    const [a, b] = [await createTestApp(app.database, { env }), await createTestApp(app.database, { env })];
    try {
      const me = await a.login(freshPhone());
      const other = await a.login(freshPhone());
      const read = (t: typeof a, ticket: string, i: number) => t.call(api.auth, { t: String(i) }, { ticket, remoteAddress: `198.51.100.${i}` });
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(codeOf(await read(i % 2 ? a : b, me.ticket, i)));
      expect(answers).toEqual(Array(10).fill(undefined));
      await countersFlushed();
      expect(codeOf(await read(a, me.ticket, 50))).toBe(-2005);
      expect(codeOf(await b.call(api.likeAdd, { post_id: 3 }, { ticket: me.ticket, remoteAddress: '198.51.100.51' }))).toBe(-2005);
      // Another user is not held back by this one; a visitor is counted by address only.
      expect(codeOf(await read(b, other.ticket, 52))).toBeUndefined();
      expect(codeOf(await b.call(api.auth, {}, { remoteAddress: '198.51.100.53' }))).toBe(-2000);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('counts in memory far from the limit and in the database near it: the count is exact once the counters flush', async () => {
    const db = app.database.db;
    const counter = new SharedWindowCounter(db, 60, 60_000);
    const key = `test:counter:${Date.now()}`;
    const answers: boolean[] = [];
    for (let i = 0; i < 100; i++) answers.push(await counter.hit(key, 90));
    expect(answers.filter(Boolean)).toHaveLength(90);
    await counter.close();
    const [row] = await queryRows<{ count: number }>(db, sql`select count from rate_limits where key = ${key}`);
    expect(row?.count).toBe(100);
  });
});

describe.each(behaviourDatabases)('the tracking collector on $name', ({ open }) => {
  const app = testAppFor(open, { COLLECT_BYTES_PER_ADDRESS_PER_HOUR: '8192' });
  const event = (i: number, properties: Record<string, string | number> = { page_name: '首页' }) => ({ event: `cap_event_${i}`, properties, time: Date.now() });
  const stored = (prefix: string) =>
    app.database.db.select().from(trackingEvents).where(like(trackingEvents.event, `${prefix}%`));

  it(`takes at most ${TRACKING_MAX_EVENTS} events a batch and ${TRACKING_MAX_PROPERTIES} properties an event`, async () => {
    const tooMany = await app.t.call(api.collect, { app_id: 'community-feed', events: Array.from({ length: TRACKING_MAX_EVENTS + 1 }, (_, i) => event(i)) }, { remoteAddress: '192.0.2.10' });
    expect(codeOf(tooMany)).toBe(-1004);
    const props = Object.fromEntries(Array.from({ length: TRACKING_MAX_PROPERTIES + 1 }, (_, i) => [`p${i}`, i]));
    const wide = await app.t.call(api.collect, { app_id: 'community-feed', events: [{ event: 'cap_wide', properties: props }] }, { remoteAddress: '192.0.2.10' });
    expect(codeOf(wide)).toBe(-1004);
    expect(await stored('cap_')).toEqual([]);
    const fits = Object.fromEntries(Array.from({ length: TRACKING_MAX_PROPERTIES }, (_, i) => [`p${i}`, i]));
    expect(codeOf(await app.t.call(api.collect, { app_id: 'community-feed', events: [{ event: 'cap_fits', properties: fits }] }, { remoteAddress: '192.0.2.10' }))).toBeUndefined();
  });

  it('caps the bytes one address stores per hour (-2005, nothing stored), and stores what it accepts for reading back', async () => {
    const address = '192.0.2.20';
    const big = (i: number) => event(i, { text: 'x'.repeat(450), page_name: `页面${i}` });
    let accepted = 0;
    let refusedAt = -1;
    for (let i = 0; i < 40 && refusedAt < 0; i++) {
      const answer = await app.t.call(api.collect, { app_id: 'community-feed', events: [big(i)] }, { remoteAddress: address });
      if (codeOf(answer) === undefined) accepted++;
      else {
        expect(errorOf(answer.body)).toEqual({ code: -2005, msg: '请求频繁' });
        refusedAt = i;
      }
    }
    // About 8 KiB of ~500-byte events, then refused.
    expect(accepted).toBeGreaterThanOrEqual(14);
    expect(accepted).toBeLessThanOrEqual(17);
    const rows = await stored('cap_event_');
    expect(rows).toHaveLength(accepted);
    expect(rows[0]!.properties).toMatchObject({ app_id: 'community-feed', page_name: expect.stringMatching(/^页面\d+$/) });
    // Another address still may send.
    expect(codeOf(await app.t.call(api.collect, { app_id: 'community-feed', events: [event(99)] }, { remoteAddress: '192.0.2.21' }))).toBeUndefined();
  });
});
