/**
 * The reads of posts, search, notice/list and the writes made most (likes, comments, posts) take a ticket found live
 * by an earlier request without looking it up again, and their first statement finds it still
 * live (http/auth.ts, services/posts.ts, services/once.ts). Ended behind the
 * process's back, as another API process or an expiry would end it, the next read or write answers
 * as a lookup would, and a write changes and counts nothing: logged out, or 452 after a login
 * elsewhere. On both engines (the check is part of
 * the prepared statement). Also the follow tab, which reads its channels' indexes alone, past
 * deleted posts: full pages, `more` right, every live post once.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import type { Paged, Post } from '../../src/shared/schemas.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { codeOf, newClientId, phoneSource, testAppFor, testDatabases, type CallResult } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

describe.each(testDatabases)('remembered tickets on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560071');

  /** Every read that takes a remembered ticket, as the ticket's holder. */
  async function readAll(ticket: string) {
    const newest = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 3 }, { ticket })).data().list[0]!;
    return {
      all: await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 3 }, { ticket }),
      follow: await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'follow', size: 3 }, { ticket }),
      channel: await app.t.call<Paged<Post>>(api.channelPosts, { channel_id: newest.channels[0]!.channel_id, size: 3 }, { ticket }),
      topic: await app.t.call<Paged<Post>>(api.topicPosts, { topic_id: 1, size: 3 }, { ticket }),
      user: await app.t.call<Paged<Post>>(api.userPosts, { visit_user_id: newest.user.uid, size: 3 }, { ticket }),
      detail: await app.t.call<Post>(api.postDetail, { post_id: newest.id }, { ticket }),
      searchPosts: await app.t.call(api.search, { q: '动态', type: 'post', size: 3 }, { ticket }),
      searchNothing: await app.t.call(api.search, { q: '无人写过的词语', type: 'post', size: 3 }, { ticket }),
      searchChannels: await app.t.call(api.search, { q: '前端', type: 'channel', size: 3 }, { ticket }),
      searchUsers: await app.t.call(api.search, { q: '同学', type: 'user', size: 3 }, { ticket }),
    };
  }

  const endBehindTheBack = (ticket: string, change: ReturnType<typeof sql>) =>
    app.database.db.execute(sql`update tickets set ${change} where token_hash = ${hashToken(ticket)}`);

  for (const [how, change] of [
    ['logged out', sql`ended_at = now(), ended_reason = 'logout'`],
    ['expired', sql`expires_at = now() - interval '1 second'`],
  ] as const) {
    it(`answers a ticket ${how} behind the process's back as logged out on every read of posts`, async () => {
      const { ticket } = await app.t.login(freshPhone());
      const before = await readAll(ticket);
      expect(Object.values(before).map(codeOf)).toEqual(Object.values(before).map(() => undefined));
      await readAll(ticket); // read again: now as a remembered ticket
      await endBehindTheBack(ticket, change);
      const after = await readAll(ticket);
      expect(codeOf(after.follow)).toBe(ErrorCode.NotLoggedIn);
      const { follow: _follow, ...visitorsReads } = after;
      for (const read of Object.values(visitorsReads)) expect(codeOf(read)).toBeUndefined();
      // A logged-in call that is not a read of posts says so too.
      expect(codeOf(await app.t.call(api.noticeUnreadCount, {}, { ticket }))).toBe(ErrorCode.NotLoggedIn);
    });
  }

  it('answers 452 on the reads of posts once a login elsewhere ended the remembered ticket', async () => {
    const phone = freshPhone();
    const { ticket } = await app.t.login(phone);
    await readAll(ticket);
    await readAll(ticket);
    await app.t.login(phone); // the same device kind: the first ticket ends
    const read = await app.t.call(api.channelPosts, { tab: 'all', size: 3 }, { ticket });
    expect(read.status).toBe(452);
    expect(codeOf(read)).toBe(ErrorCode.Relogin);
  });

  it('answers 452 on every search once a login elsewhere ended the remembered ticket', async () => {
    // One ticket per search: a 452 forgets the ticket, so the next call would look it up.
    for (const [q, type] of [['动态', 'post'], ['无人写过的词语', 'post'], ['前端', 'channel'], ['同学', 'user']]) {
      const phone = freshPhone();
      const { ticket } = await app.t.login(phone);
      for (let i = 0; i < 2; i++) expect(codeOf(await app.t.call(api.search, { q, type, size: 3 }, { ticket }))).toBeUndefined();
      await app.t.login(phone);
      const found = await app.t.call(api.search, { q, type, size: 3 }, { ticket });
      expect([type, q, found.status, codeOf(found)]).toEqual([type, q, 452, ErrorCode.Relogin]);
    }
  });

  it('answers notice/list on a remembered ticket ended behind its back as logged out, and 452 after a login elsewhere, with notices or none', async () => {
    const commenter = await app.t.login(freshPhone());
    for (const withNotices of [true, false]) {
      for (const ending of ['logout', 'login elsewhere'] as const) {
        const phone = freshPhone();
        const reader = await app.t.login(phone);
        if (withNotices) {
          const post = (await app.t.call<Post>(api.postAdd, { content: text('有通知的动态'), channel_id: [1], ...key() }, { ticket: reader.ticket })).data();
          await app.t.call(api.commentAdd, { post_id: post.id, content: text('评论'), ...key() }, { ticket: commenter.ticket }).then((r) => r.data());
        }
        for (let i = 0; i < 2; i++) {
          const page = (await app.t.call<Paged<unknown>>(api.noticeList, {}, { ticket: reader.ticket })).data();
          expect(page.list.length).toBe(withNotices ? 1 : 0);
        }
        if (ending === 'logout') await endBehindTheBack(reader.ticket, sql`ended_at = now(), ended_reason = 'logout'`);
        else await app.t.login(phone);
        const after = await app.t.call(api.noticeList, {}, { ticket: reader.ticket });
        expect([withNotices, ending, codeOf(after)]).toEqual([withNotices, ending, ending === 'logout' ? ErrorCode.NotLoggedIn : ErrorCode.Relogin]);
      }
    }
  });

  /** The writes that take a remembered ticket, each on post `postId`; the others need a client_id, a like may go without. */
  const key = () => ({ client_id: newClientId('remembered') });
  // A text of its own each time: the same text again is refused as a repeat.
  const text = (what: string) => `记得的票写的${what} ${newClientId('text')}`;
  const writes = {
    'likes/add with a client_id': (ticket: string, postId: number) => app.t.call(api.likeAdd, { post_id: postId, ...key() }, { ticket }),
    'likes/add without one': (ticket: string, postId: number) => app.t.call(api.likeAdd, { post_id: postId }, { ticket }),
    'likes/cancel with a client_id': (ticket: string, postId: number) => app.t.call(api.likeCancel, { post_id: postId, ...key() }, { ticket }),
    'likes/cancel without one': (ticket: string, postId: number) => app.t.call(api.likeCancel, { post_id: postId }, { ticket }),
    'comment/add': (ticket: string, postId: number) => app.t.call(api.commentAdd, { post_id: postId, content: text('评论'), ...key() }, { ticket }),
    'post/add': (ticket: string) => app.t.call(api.postAdd, { content: text('动态'), channel_id: [1], ...key() }, { ticket }),
  };

  /** What a user's writes leave behind: their likes, comments, posts, stored answers and write window. */
  async function traces(uid: number) {
    const [row] = await queryRows<Record<string, number>>(
      app.database.db,
      sql`select (select count(*) from likes where user_id = ${uid})::int as likes,
        (select count(*) from comments where user_id = ${uid})::int as comments,
        (select count(*) from posts where user_id = ${uid})::int as posts,
        (select count(*) from idempotency_keys where user_id = ${uid})::int as keys,
        (select coalesce(sum(count), 0) from rate_limits where key = ${`write:user:${uid}`})::int as window`,
    );
    return row!;
  }

  /** A fresh user whose ticket this process remembers (its reads and this write made with it), with a post to write on. */
  async function rememberedWriter(write: (ticket: string, postId: number) => Promise<CallResult<unknown>>) {
    const phone = freshPhone();
    const { ticket, uid } = await app.t.login(phone);
    const post = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 1 }, { ticket })).data().list[0]!;
    expect(codeOf(await write(ticket, post.id))).toBeUndefined();
    expect(codeOf(await write(ticket, post.id))).toBeUndefined();
    return { phone, ticket, uid, postId: post.id };
  }

  for (const [name, write] of Object.entries(writes)) {
    it(`refuses ${name} on a remembered ticket logged out behind the process's back, writing and counting nothing`, async () => {
      const { ticket, uid, postId } = await rememberedWriter(write);
      const before = await traces(uid);
      await endBehindTheBack(ticket, sql`ended_at = now(), ended_reason = 'logout'`);
      expect(codeOf(await write(ticket, postId))).toBe(ErrorCode.NotLoggedIn);
      expect(await traces(uid)).toEqual(before);
    });

    it(`answers 452 on ${name} once a login elsewhere ended the remembered ticket`, async () => {
      const { phone, ticket, uid, postId } = await rememberedWriter(write);
      const before = await traces(uid);
      await app.t.login(phone);
      const refused = await write(ticket, postId);
      expect(refused.status).toBe(452);
      expect(codeOf(refused)).toBe(ErrorCode.Relogin);
      expect(await traces(uid)).toEqual(before);
    });
  }

  it('tells the viewer their likes and follows on a remembered ticket as on a looked-up one', async () => {
    const { ticket } = await app.t.login('13800000000');
    const first = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'follow', size: 20 }, { ticket })).data();
    const again = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'follow', size: 20 }, { ticket })).data();
    expect(again).toEqual(first);
  });

  it('fills the follow tab past deleted posts: full pages, more right, every live post once', async () => {
    const { ticket, uid } = await app.t.login(freshPhone());
    const [channel] = await queryRows<{ id: number }>(
      app.database.db,
      sql`select channel_id as id from post_channels group by channel_id order by count(*) desc limit 1`,
    );
    await app.database.db.execute(sql`insert into channel_follows (user_id, channel_id) values (${uid}, ${channel!.id})`);
    const newest = await queryRows<{ id: number }>(
      app.database.db,
      sql`select pc.post_id::int as id from post_channels pc join posts p on p.id = pc.post_id
        where pc.channel_id = ${channel!.id} and p.deleted_at is null order by pc.post_id desc limit 8`,
    );
    expect(newest.length).toBe(8);
    // The 2nd, 3rd and 4th newest deleted: the first page of 2 reads two pages of candidates.
    const gone = newest.slice(1, 4).map((row) => row.id);
    await app.database.db.execute(sql`update posts set deleted_at = now() where id in ${gone}`);
    const live = await queryRows<{ id: number }>(
      app.database.db,
      sql`select pc.post_id::int as id from post_channels pc join posts p on p.id = pc.post_id
        where pc.channel_id = ${channel!.id} and p.deleted_at is null order by pc.post_id desc`,
    );
    const seen: number[] = [];
    let index = 0;
    for (;;) {
      const page = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'follow', size: 2, index }, { ticket })).data();
      seen.push(...page.list.map((post) => post.id));
      if (!page.page.more) break;
      expect(page.list.length).toBe(2);
      index = page.page.next_index;
    }
    expect(seen).toEqual(live.map((row) => row.id));
    await app.database.db.execute(sql`update posts set deleted_at = null where id in ${gone}`);
  });
});
