/**
 * likes/add, likes/cancel and likes/list, on PostgreSQL (behaviour: one engine): one
 * like per user and target through the edge toggle, the count answered after each call, the
 * post's (or comment's) and the author's counts exact under 50 concurrent calls, likers newest
 * first by like time.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Paged, Post, UserBrief } from '../../src/shared/schemas.ts';
import { comments, posts, users } from '../../src/server/db/schema.ts';
import { codeOf, errorOf, isChineseMessage, phoneSource, testAppFor, behaviourDatabases } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';

type LikeAnswer = { is_success: boolean; like_count: number };

describe.each(behaviourDatabases)('likes on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560001');

  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(app.database.db, query))[0]!;
  const postRow = async (id: number) => (await app.database.db.select().from(posts).where(eq(posts.id, id)))[0]!;
  const userRow = async (id: number) => (await app.database.db.select().from(users).where(eq(users.id, id)))[0]!;
  const allZero = async () => {
    const mismatches = await counterMismatches(app.database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  };

  it('likes and unlikes a post: the count after each call, repeats harmless, post and author counts follow', async () => {
    const me = await app.t.login(freshPhone());
    const before = await postRow(11);
    const authorBefore = (await userRow(before.userId)).likeCount;
    const like = async (on: boolean) => (await app.t.call<LikeAnswer>(on ? api.likeAdd : api.likeCancel, { post_id: 11, type: 1 }, { ticket: me.ticket })).data();

    expect(await like(true)).toEqual({ is_success: true, like_count: before.likeCount + 1 });
    expect(await like(true)).toEqual({ is_success: true, like_count: before.likeCount + 1 });
    expect((await postRow(11)).likeCount).toBe(before.likeCount + 1);
    expect((await userRow(before.userId)).likeCount).toBe(authorBefore + 1);
    const detail = (await app.t.call<Post>(api.postDetail, { post_id: 11 }, { ticket: me.ticket })).data();
    expect([detail.is_like, detail.like_count]).toEqual([true, before.likeCount + 1]);

    expect(await like(false)).toEqual({ is_success: true, like_count: before.likeCount });
    expect(await like(false)).toEqual({ is_success: true, like_count: before.likeCount });
    expect((await userRow(before.userId)).likeCount).toBe(authorBefore);
    await allZero();
  });

  it('likes a comment (type optional), moving the comment and its author', async () => {
    const me = await app.t.login(freshPhone());
    const { id } = await one<{ id: number }>(sql`select id::int as id from comments where deleted_at is null order by id limit 1`);
    const [comment] = await app.database.db.select().from(comments).where(eq(comments.id, id));
    const authorBefore = (await userRow(comment!.userId)).likeCount;
    const answer = (await app.t.call<LikeAnswer>(api.likeAdd, { comment_id: id }, { ticket: me.ticket })).data();
    expect(answer).toEqual({ is_success: true, like_count: comment!.likeCount + 1 });
    expect((await userRow(comment!.userId)).likeCount).toBe(authorBefore + 1);
    const list = (await app.t.call<Paged<{ id: number; is_like: boolean; like_count: number; replies: { id: number; is_like: boolean }[] }>>(
      api.commentList,
      { post_id: comment!.postId, size: 50 },
      { ticket: me.ticket },
    )).data();
    const shown = list.list.flatMap((c) => [c, ...c.replies]).find((c) => c.id === id);
    expect(shown?.is_like).toBe(true);
    expect((await app.t.call<LikeAnswer>(api.likeCancel, { comment_id: String(id) }, { ticket: me.ticket })).data().like_count).toBe(comment!.likeCount);
    await allZero();
  });

  it('accepts ids as strings of digits, as public clients send them', async () => {
    const me = await app.t.login(freshPhone());
    const count = (await postRow(12)).likeCount;
    expect((await app.t.call<LikeAnswer>(api.likeAdd, { post_id: '12', type: 1 }, { ticket: me.ticket })).data().like_count).toBe(count + 1);
    expect((await app.t.call<LikeAnswer>(api.likeCancel, { post_id: '12' }, { ticket: me.ticket })).data().like_count).toBe(count);
  });

  it('answers -1005 for a missing or deleted target, -2000 for a visitor, and a Chinese -1004 for a bad body', async () => {
    const me = await app.t.login(freshPhone());
    expect(codeOf(await app.t.call(api.likeAdd, { post_id: 999_999 }, { ticket: me.ticket }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.likeAdd, { comment_id: 999_999 }, { ticket: me.ticket }))).toBe(-1005);
    await app.database.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, 13));
    const deletedLikes = (await postRow(13)).likeCount;
    expect(codeOf(await app.t.call(api.likeAdd, { post_id: 13 }, { ticket: me.ticket }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.likeCancel, { post_id: 13 }, { ticket: me.ticket }))).toBe(-1005);
    expect((await postRow(13)).likeCount).toBe(deletedLikes);
    await app.database.db.update(posts).set({ deletedAt: null }).where(eq(posts.id, 13));

    expect(codeOf(await app.t.call(api.likeAdd, { post_id: 11 }))).toBe(-2000);
    for (const body of [{}, { post_id: 'abc' }, { post_id: -3 }, { post_id: 1.5 }, { post_id: 2_147_483_648 }, { post_id: '99999999999999999999' }, { post_id: 11, type: 'x' }, { post_id: null }]) {
      const answer = await app.t.call(api.likeAdd, body, { ticket: me.ticket });
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(codeOf(answer), JSON.stringify(body)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
    }
    await allZero();
  });

  it('keeps post, comment and author counts exact under 50 concurrent likes and unlikes, by many users and repeated by one', async () => {
    const people: { ticket: string; uid: number }[] = [];
    for (let i = 0; i < 8; i++) people.push(await app.t.login(freshPhone()));
    const { id: commentId } = await one<{ id: number }>(sql`select id::int as id from comments where deleted_at is null order by id desc limit 1`);
    const targets = [{ post_id: 14 }, { comment_id: commentId }];
    const calls = Array.from({ length: 50 }, (_, i) => {
      const target = targets[i % 2]!;
      // Person 0 repeats like/unlike on both targets; the others like, and some take it back.
      const who = i < 16 ? people[0]! : people[1 + (i % 7)]!;
      const on = i < 16 ? i % 3 !== 2 : i % 5 !== 0;
      return app.t.call<LikeAnswer>(on ? api.likeAdd : api.likeCancel, target, { ticket: who.ticket });
    });
    const answers = await Promise.all(calls);
    for (const answer of answers) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);

    const postLikes = await one<{ n: number }>(sql`select count(*)::int as n from likes where target_type = 'post' and target_id = 14`);
    expect((await postRow(14)).likeCount).toBe(postLikes.n);
    const commentLikes = await one<{ n: number }>(sql`select count(*)::int as n from likes where target_type = 'comment' and target_id = ${commentId}`);
    const [comment] = await app.database.db.select().from(comments).where(eq(comments.id, commentId));
    expect(comment!.likeCount).toBe(commentLikes.n);
    await allZero();
  });

  it('pages likers newest first by like time (not by user id), with a keyset cursor', async () => {
    const likers: { ticket: string; uid: number }[] = [];
    for (let i = 0; i < 5; i++) likers.push(await app.t.login(freshPhone()));
    const postId = 15;
    // Like in an order that is not the order of user ids.
    const order = [likers[3]!, likers[0]!, likers[4]!, likers[1]!, likers[2]!];
    for (const who of order) expect(codeOf(await app.t.call(api.likeAdd, { post_id: postId }, { ticket: who.ticket }))).toBeUndefined();
    const first = (await app.t.call<Paged<UserBrief>>(api.likeList, { post_id: postId, size: 3 })).data();
    expect(first.list.map((u) => u.uid)).toEqual(order.slice(-3).reverse().map((u) => u.uid));
    expect(first.page.more).toBe(true);
    const second = (await app.t.call<Paged<UserBrief>>(api.likeList, { post_id: String(postId), index: first.page.next_index, size: 2 })).data();
    expect(second.list.map((u) => u.uid)).toEqual(order.slice(0, 2).reverse().map((u) => u.uid));
    // Seeded likers follow, newest first.
    const seeded = await queryRows<{ user_id: number }>(
      app.database.db,
      sql`select user_id from likes where target_type = 'post' and target_id = ${postId} order by id desc`,
    );
    const all: number[] = [];
    let index = 0;
    for (;;) {
      const page = (await app.t.call<Paged<UserBrief>>(api.likeList, { post_id: postId, index, size: 4 })).data();
      all.push(...page.list.map((u) => u.uid));
      if (!page.page.more) break;
      index = page.page.next_index;
    }
    expect(all).toEqual(seeded.map((row) => row.user_id));
    // Unliking takes the user off the list.
    await app.t.call(api.likeCancel, { post_id: postId }, { ticket: likers[2]!.ticket });
    const after = (await app.t.call<Paged<UserBrief>>(api.likeList, { post_id: postId, size: 1 })).data();
    expect(after.list[0]?.uid).toBe(likers[1]!.uid);
  });
});
