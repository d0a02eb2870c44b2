/**
 * complain/reasons and complain/add, on PostgreSQL (behaviour: one engine): a reason from
 * the shared list or none, optional text counted in user-perceived characters, -2901 / -2902 /
 * -1011 / -1005, the daily cap (-2006), exactly once per client_id.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { COMPLAIN_REASONS } from '../../src/shared/constants.ts';
import { posts } from '../../src/server/db/schema.ts';
import { codeOf, createTestApp, errorOf, isChineseMessage, newClientId, phoneSource, testAppFor, behaviourDatabases, type TestApp } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

type Complained = { complain_id: number };

describe.each(behaviourDatabases)('complaints on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560005');

  const complain = (t: TestApp, ticket: string | undefined, body: Record<string, unknown>) =>
    t.call<Complained>(api.complainAdd, { target_type: 'post', target_id: 31, reason: 'spam', content: '', client_id: newClientId('complain'), ...body }, { ticket });
  const stored = async (userId: number) =>
    Number((await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from complaints where user_id = ${userId}`))[0]!.n);

  it('lists the reasons in order, for anyone', async () => {
    const answer = (await app.t.call<{ list: { reason: string; text: string }[] }>(api.complainReasons, {})).data();
    expect(answer.list).toEqual(COMPLAIN_REASONS.map(({ reason, text }) => ({ reason, text })));
    expect(answer.list.map((r) => r.text)).toEqual(['垃圾广告', '色情低俗', '违法违规', '人身攻击', '抄袭侵权', '其他']);
  });

  it('files a complaint about a post, a comment and a user; once per user and target (-1011)', async () => {
    const me = await app.t.login(freshPhone());
    const [comment] = await queryRows<{ id: number }>(app.database.db, sql`select id::int as id from comments where deleted_at is null order by id limit 1`);
    const first = (await complain(app.t, me.ticket, { target_type: 'post', target_id: 31 })).data();
    expect(first.complain_id).toBeGreaterThan(0);
    expect(codeOf(await complain(app.t, me.ticket, { target_type: 'comment', target_id: String(comment!.id), reason: '', content: '评论里有广告链接' }))).toBeUndefined();
    expect(codeOf(await complain(app.t, me.ticket, { target_type: 'user', target_id: 3, reason: 'abuse', content: '  辱骂他人  ' }))).toBeUndefined();
    const rows = await queryRows<{ target_type: string; reason: string; content: string }>(
      app.database.db,
      sql`select target_type, reason, content from complaints where user_id = ${me.uid} order by id`,
    );
    expect(rows).toEqual([
      { target_type: 'post', reason: 'spam', content: '' },
      { target_type: 'comment', reason: '', content: '评论里有广告链接' },
      { target_type: 'user', reason: 'abuse', content: '辱骂他人' },
    ]);
    const again = await complain(app.t, me.ticket, { target_type: 'post', target_id: 31, reason: 'other', content: '再投诉一次' });
    expect(errorOf(again.body)).toEqual({ code: -1011, msg: '已经投诉过了' });
    // Another user may complain about the same post.
    const other = await app.t.login(freshPhone());
    expect(codeOf(await complain(app.t, other.ticket, { target_type: 'post', target_id: 31 }))).toBeUndefined();
    expect(await stored(me.uid)).toBe(3);
  });

  it('answers -1012 for a complaint about one’s own post, comment or self, and files none', async () => {
    const me = await app.t.login(freshPhone());
    const post = (
      await app.t.call<{ id: number }>(api.postAdd, { content: '我自己的动态', channel_id: [1], client_id: newClientId('own-post') }, { ticket: me.ticket })
    ).data();
    const comment = (
      await app.t.call<{ id: number }>(api.commentAdd, { post_id: 31, content: '我自己的评论', client_id: newClientId('own-comment') }, { ticket: me.ticket })
    ).data();
    for (const [target_type, target_id] of [['post', post.id], ['comment', comment.id], ['user', me.uid]] as const) {
      expect(errorOf((await complain(app.t, me.ticket, { target_type, target_id })).body)).toEqual({ code: -1012, msg: '不能投诉自己的内容' });
    }
    expect(await stored(me.uid)).toBe(0);
  });

  it('answers -2901 for no reason and no text, -2902 over 500 characters counted as the reader sees them', async () => {
    const me = await app.t.login(freshPhone());
    for (const content of ['', '   \n ']) {
      expect(errorOf((await complain(app.t, me.ticket, { reason: '', content })).body)).toEqual({ code: -2901, msg: '无效的反馈内容' });
    }
    const tooLong = await complain(app.t, me.ticket, { reason: '', content: '字'.repeat(501) });
    expect(errorOf(tooLong.body)).toEqual({ code: -2902, msg: '反馈内容请不要超过 500 字' });
    // 500 family emoji are 500 characters to a reader (5,500 UTF-16 units): accepted; 501 are not.
    const family = '👨‍👩‍👧‍👦';
    expect(codeOf(await complain(app.t, me.ticket, { target_id: 32, content: family.repeat(501) }))).toBe(-2902);
    expect(codeOf(await complain(app.t, me.ticket, { target_id: 32, content: family.repeat(500) }))).toBeUndefined();
    expect(codeOf(await complain(app.t, me.ticket, { target_id: 33, content: 'a'.repeat(100_000) }))).toBe(-2902);
    expect(codeOf(await complain(app.t, me.ticket, { target_id: 33, reason: 'other', content: '字'.repeat(500) }))).toBeUndefined();
    expect(await stored(me.uid)).toBe(2);
  });

  it('answers -1005 for a missing or deleted target, -2000 for a visitor, a Chinese -1004 for bad bodies', async () => {
    const me = await app.t.login(freshPhone());
    for (const target_type of ['post', 'comment', 'user']) {
      expect(codeOf(await complain(app.t, me.ticket, { target_type, target_id: 2_000_000_000 })), target_type).toBe(-1005);
    }
    await app.database.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, 34));
    expect(codeOf(await complain(app.t, me.ticket, { target_id: 34 }))).toBe(-1005);
    await app.database.db.update(posts).set({ deletedAt: null }).where(eq(posts.id, 34));
    expect(codeOf(await complain(app.t, undefined, {}))).toBe(-2000);
    const bad: Record<string, unknown>[] = [
      { reason: 'ads' },
      { reason: '广告' },
      { reason: 5 },
      { target_type: 'channel' },
      { target_id: 'abc' },
      { target_id: 9_999_999_999 },
      { content: 12 },
      { client_id: undefined },
    ];
    for (const body of bad) {
      const answer = await complain(app.t, me.ticket, body);
      expect(codeOf(answer), JSON.stringify(body)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
    }
    expect(await stored(me.uid)).toBe(0);
  });

  it('answers a replayed client_id with the original answer (not -1011); another body is -1009', async () => {
    const me = await app.t.login(freshPhone());
    const body = { target_type: 'post', target_id: 35, reason: 'porn', content: '', client_id: newClientId('complain-replay') };
    const answers = await Promise.all(Array.from({ length: 5 }, () => app.t.call<Complained>(api.complainAdd, body, { ticket: me.ticket })));
    const ids = answers.map((answer) => answer.data().complain_id);
    expect(new Set(ids).size).toBe(1);
    expect(codeOf(await app.t.call(api.complainAdd, { ...body, reason: 'spam' }, { ticket: me.ticket }))).toBe(-1009);
    expect(await stored(me.uid)).toBe(1);
  });

  it('caps complaints per user and day (-2006); failed complaints and replays do not count', async () => {
    const capped = await createTestApp(app.database, { env: { DAILY_COMPLAINT_LIMIT: '2' } });
    try {
      const me = await capped.login(freshPhone());
      expect(codeOf(await complain(capped, me.ticket, { reason: '', content: '' }))).toBe(-2901);
      const firstBody = { target_id: 36, client_id: newClientId('cap') };
      expect(codeOf(await complain(capped, me.ticket, firstBody))).toBeUndefined();
      expect(codeOf(await complain(capped, me.ticket, { target_id: 36 }))).toBe(-1011);
      expect(codeOf(await complain(capped, me.ticket, { target_id: 37 }))).toBeUndefined();
      const third = await complain(capped, me.ticket, { target_id: 38 });
      expect(errorOf(third.body)).toEqual({ code: -2006, msg: '今日操作已达上限' });
      // The answered first complaint replays as it was.
      expect(codeOf(await complain(capped, me.ticket, firstBody))).toBeUndefined();
      expect(await stored(me.uid)).toBe(2);
      // Another user has a cap of their own.
      const other = await capped.login(freshPhone());
      expect(codeOf(await complain(capped, other.ticket, { target_id: 38 }))).toBeUndefined();
    } finally {
      await capped.close();
    }
  });
});
