/**
 * Every -2005 请求频繁 tells the client when to come back: Retry-After is the whole seconds until
 * the window that refused it ends (at least 1), for the limits per address, per user's writes
 * and a phone's login-code resend window alike.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { tooFrequent } from '../../src/server/errors.ts';
import { behaviourDatabases, codeOf, createTestApp, phoneSource, testAppFor, type CallResult } from '../support/api.ts';

const retryAfterOf = (result: CallResult<unknown>) => Number(result.response.headers['retry-after']);

describe('tooFrequent', () => {
  it('rounds the time left up to whole seconds, never below 1', () => {
    expect(tooFrequent(0).retryAfterSeconds).toBe(1);
    expect(tooFrequent(200).retryAfterSeconds).toBe(1);
    expect(tooFrequent(1500).retryAfterSeconds).toBe(2);
    expect(tooFrequent(60_000).retryAfterSeconds).toBe(60);
  });
});

describe.each(behaviourDatabases)('Retry-After on -2005 on $name', ({ open }) => {
  const app = testAppFor(open, { WRITE_LIMIT_PER_MINUTE: '1', LOGIN_CODE_RESEND_SECONDS: '30' });
  const freshPhone = phoneSource('1570031');

  it('per address: the seconds left in its minute, fewer as the window runs out', async () => {
    const t = await createTestApp(app.database, { env: { REQUEST_LIMIT_PER_ADDRESS: '2' } });
    try {
      const read = () => t.call(api.topicList, { size: 1 }, { remoteAddress: '203.0.113.31' });
      expect([codeOf(await read()), codeOf(await read())]).toEqual([undefined, undefined]);
      const refused = await read();
      expect(codeOf(refused)).toBe(-2005);
      expect(retryAfterOf(refused)).toBeGreaterThanOrEqual(50);
      expect(retryAfterOf(refused)).toBeLessThanOrEqual(60);
      // 50 seconds of the window gone: about 10 left.
      await app.database.db
        .update(rateLimits)
        .set({ windowStart: sql`${rateLimits.windowStart} - interval '50 seconds'` })
        .where(eq(rateLimits.key, 'requests:ip:203.0.113.31'));
      const later = await read();
      expect(codeOf(later)).toBe(-2005);
      expect(retryAfterOf(later)).toBeGreaterThanOrEqual(1);
      expect(retryAfterOf(later)).toBeLessThanOrEqual(10);
      // A call that is not refused says nothing of the kind.
      expect((await t.call(api.topicList, { size: 1 }, { remoteAddress: '203.0.113.32' })).response.headers['retry-after']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it("per user's writes: the seconds left in the user's minute", async () => {
    const me = await app.t.login(freshPhone());
    expect(codeOf(await app.t.call(api.likeAdd, { post_id: 3 }, { ticket: me.ticket }))).toBeUndefined();
    const refused = await app.t.call(api.likeAdd, { post_id: 4 }, { ticket: me.ticket });
    expect(codeOf(refused)).toBe(-2005);
    expect(retryAfterOf(refused)).toBeGreaterThanOrEqual(50);
    expect(retryAfterOf(refused)).toBeLessThanOrEqual(60);
  });

  it("a phone's login code asked again: the seconds left of its resend window", async () => {
    const phone = freshPhone();
    expect(codeOf(await app.t.call(api.loginCode, { cellphone: phone }, { remoteAddress: '198.51.100.31' }))).toBeUndefined();
    const refused = await app.t.call(api.loginCode, { cellphone: phone }, { remoteAddress: '198.51.100.31' });
    expect(codeOf(refused)).toBe(-2005);
    expect(retryAfterOf(refused)).toBeGreaterThanOrEqual(20);
    expect(retryAfterOf(refused)).toBeLessThanOrEqual(30);
  });
});
