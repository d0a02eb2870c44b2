/**
 * comment/add and comment/delete with exactly-once client_ids, on PostgreSQL (behaviour: one
 * engine): replies to a comment or a reply stored flat under the root,
 * comment_count and reply_count in the same transaction, deletion by the comment's or the
 * post's author, a deleted comment with live replies kept as is_deleted.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Comment, CommentBase, Paged, Post } from '../../src/shared/schemas.ts';
import { comments, posts } from '../../src/server/db/schema.ts';
import { codeOf, errorOf, isChineseMessage, newClientId, phoneSource, testAppFor, behaviourDatabases, type TestApp } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';
import { givePost } from './fixtures.ts';

describe.each(behaviourDatabases)('comments on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560002');

  const allZero = async () => {
    const mismatches = await counterMismatches(app.database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  };
  const commentCount = async (postId: number) => (await app.database.db.select().from(posts).where(eq(posts.id, postId)))[0]!.commentCount;
  const rowsOf = async (postId: number) =>
    Number((await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from comments where post_id = ${postId}`))[0]!.n);
  const add = (t: TestApp, ticket: string, body: Record<string, unknown>) =>
    t.call<Comment>(api.commentAdd, { client_id: newClientId('comment'), ...body }, { ticket });
  const list = async (postId: number, ticket?: string) => {
    const out: Comment[] = [];
    let index = 0;
    for (;;) {
      const page = (await app.t.call<Paged<Comment>>(api.commentList, { post_id: postId, index, size: 50 }, { ticket })).data();
      out.push(...page.list);
      if (!page.page.more) return out;
      index = page.page.next_index;
    }
  };
  /** A post by another user, for a fresh commenter. */
  const postId = 21;

  it('comments, replies to the comment and to the reply (flat under the root), counts following', async () => {
    const [alice, bob] = [await app.t.login(freshPhone()), await app.t.login(freshPhone())];
    const before = await commentCount(postId);

    const root = (await add(app.t, alice.ticket, { post_id: postId, content: '  第一条评论  ' })).data();
    expect(root).toMatchObject({ post_id: postId, content: '第一条评论', reply_user: null, reply_count: 0, replies: [], is_deleted: false, like_count: 0 });
    expect(root.user.uid).toBe(alice.uid);

    const reply = (await add(app.t, bob.ticket, { post_id: String(postId), content: '回复一', reply_id: root.id })).data();
    expect(reply.reply_user?.uid).toBe(alice.uid);
    const replyToReply = (await add(app.t, alice.ticket, { post_id: postId, content: '回复回复', reply_id: String(reply.id) })).data();
    expect(replyToReply.reply_user?.uid).toBe(bob.uid);

    const stored = await app.database.db.select().from(comments).where(eq(comments.id, replyToReply.id));
    expect(stored[0]!.rootId).toBe(root.id);
    expect(await commentCount(postId)).toBe(before + 3);
    const shown = (await list(postId)).find((c) => c.id === root.id)!;
    expect(shown.reply_count).toBe(2);
    expect(shown.replies.map((r) => [r.id, r.reply_user?.uid])).toEqual([
      [reply.id, alice.uid],
      [replyToReply.id, bob.uid],
    ]);
    const detail = (await app.t.call<Post>(api.postDetail, { post_id: postId })).data();
    expect(detail.comment_count).toBe(before + 3);
    await allZero();
  });

  it('deletes by the comment author or the post author, never by someone else (-1006)', async () => {
    const [alice, bob, stranger] = [await app.t.login(freshPhone()), await app.t.login(freshPhone()), await app.t.login(freshPhone())];
    // A post of alice's own, so she is the post's author.
    const [own] = await queryRows<{ id: number }>(app.database.db, sql`select id::int as id from posts where deleted_at is null order by id desc limit 1`);
    await givePost(app.database.db, alice.uid, own!.id);

    const bobs = (await add(app.t, bob.ticket, { post_id: own!.id, content: 'bob 的评论' })).data();
    const bobs2 = (await add(app.t, bob.ticket, { post_id: own!.id, content: 'bob 的第二条' })).data();
    const count = await commentCount(own!.id);
    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: bobs.id }, { ticket: stranger.ticket }))).toBe(-1006);
    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: bobs.id }))).toBe(-2000);
    expect(await commentCount(own!.id)).toBe(count);

    expect((await app.t.call(api.commentDelete, { comment_id: bobs.id }, { ticket: bob.ticket })).data()).toEqual({ comment_id: bobs.id });
    expect((await app.t.call(api.commentDelete, { comment_id: String(bobs2.id) }, { ticket: alice.ticket })).data()).toEqual({ comment_id: bobs2.id });
    expect(await commentCount(own!.id)).toBe(count - 2);
    expect((await list(own!.id)).map((c) => c.id)).not.toContain(bobs.id);
    // Deleting again: gone.
    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: bobs.id }, { ticket: bob.ticket }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: 2_000_000_000 }, { ticket: bob.ticket }))).toBe(-1005);
    await allZero();
  });

  it('keeps a deleted comment with live replies in place as is_deleted (content empty), and drops it with its last reply', async () => {
    const [alice, bob] = [await app.t.login(freshPhone()), await app.t.login(freshPhone())];
    const root = (await add(app.t, alice.ticket, { post_id: postId, content: '会被删除的评论' })).data();
    const reply = (await add(app.t, bob.ticket, { post_id: postId, content: '还在的回复', reply_id: root.id })).data();
    // A like on the root, so deleting it moves the author's like count too.
    await app.t.call(api.likeAdd, { comment_id: root.id }, { ticket: bob.ticket });
    const before = await commentCount(postId);

    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: root.id }, { ticket: alice.ticket }))).toBeUndefined();
    expect(await commentCount(postId)).toBe(before - 1);
    const kept = (await list(postId, bob.ticket)).find((c) => c.id === root.id);
    expect(kept).toMatchObject({ is_deleted: true, content: '', reply_count: 1 });
    expect(kept!.replies.map((r) => [r.id, r.is_deleted, r.content])).toEqual([[reply.id, false, '还在的回复']]);
    // A deleted comment cannot be answered or liked.
    expect(codeOf(await add(app.t, bob.ticket, { post_id: postId, content: '回复已删除', reply_id: root.id }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.likeAdd, { comment_id: root.id }, { ticket: alice.ticket }))).toBe(-1005);
    await allZero();

    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: reply.id }, { ticket: bob.ticket }))).toBeUndefined();
    expect((await list(postId)).map((c) => c.id)).not.toContain(root.id);
    expect(await commentCount(postId)).toBe(before - 2);
    await allZero();
  });

  it('answers -1005 for comments of a missing or deleted post and replies across posts are refused', async () => {
    const me = await app.t.login(freshPhone());
    expect(codeOf(await add(app.t, me.ticket, { post_id: 1_999_999, content: '没有这条动态' }))).toBe(-1005);
    const c = (await add(app.t, me.ticket, { post_id: 22, content: '删除动态前' })).data();
    const other = (await add(app.t, me.ticket, { post_id: 23, content: '另一条动态' })).data();
    const mismatch = await add(app.t, me.ticket, { post_id: 22, content: '跨动态回复', reply_id: other.id });
    expect(codeOf(mismatch)).toBe(-1004);
    expect(isChineseMessage(errorOf(mismatch.body)?.msg)).toBe(true);

    await app.database.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, 22));
    const rows = await rowsOf(22);
    expect(codeOf(await add(app.t, me.ticket, { post_id: 22, content: '删除之后' }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.commentDelete, { comment_id: c.id }, { ticket: me.ticket }))).toBe(-1005);
    expect(codeOf(await app.t.call(api.commentList, { post_id: 22 }))).toBe(-1005);
    expect(await rowsOf(22)).toBe(rows);
    await app.database.db.update(posts).set({ deletedAt: null }).where(eq(posts.id, 22));
  });

  it('answers a replayed client_id with the original comment, once; another body under it is -1009', async () => {
    const me = await app.t.login(freshPhone());
    const clientId = newClientId('replay');
    const body = { post_id: postId, content: '只发一次', client_id: clientId };
    const before = await rowsOf(postId);
    const first = (await app.t.call<Comment>(api.commentAdd, body, { ticket: me.ticket })).data();
    const again = (await app.t.call<Comment>(api.commentAdd, { ...body, post_id: String(postId) }, { ticket: me.ticket })).data();
    expect(again).toEqual(first);
    expect(await rowsOf(postId)).toBe(before + 1);
    const changed = await app.t.call(api.commentAdd, { ...body, content: '换了内容' }, { ticket: me.ticket });
    expect(errorOf(changed.body)).toEqual({ code: -1009, msg: '重复请求与原请求不一致' });
    expect(await rowsOf(postId)).toBe(before + 1);
    // The same client_id of another user, or of another call, is another key.
    const other = await app.t.login(freshPhone());
    expect(codeOf(await app.t.call(api.commentAdd, body, { ticket: other.ticket }))).toBeUndefined();
    expect(await rowsOf(postId)).toBe(before + 2);

    // Deleting with a client_id: a replay answers the original success, not -1005.
    const del = { comment_id: first.id, client_id: newClientId('delete') };
    expect((await app.t.call(api.commentDelete, del, { ticket: me.ticket })).data()).toEqual({ comment_id: first.id });
    expect((await app.t.call(api.commentDelete, del, { ticket: me.ticket })).data()).toEqual({ comment_id: first.id });
    await allZero();
  });

  it('makes one comment of five concurrent replays of one client_id', async () => {
    const me = await app.t.login(freshPhone());
    const body = { post_id: postId, content: '并发重放', client_id: newClientId('race') };
    const before = await rowsOf(postId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => app.t.call<Comment>(api.commentAdd, body, { ticket: me.ticket })));
    const ids = answers.map((answer) => answer.data().id);
    expect(new Set(ids).size).toBe(1);
    expect(await rowsOf(postId)).toBe(before + 1);
    const keys = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from idempotency_keys where user_id = ${me.uid} and kind = 'commentAdd' and client_id = ${body.client_id}`,
    );
    expect(keys[0]!.n).toBe(1);
    await allZero();
  });

  it('keeps comment and reply counts exact under concurrent adds and deletes', async () => {
    const people: { ticket: string; uid: number }[] = [];
    for (let i = 0; i < 5; i++) people.push(await app.t.login(freshPhone()));
    const root = (await add(app.t, people[0]!.ticket, { post_id: 24, content: '并发的根评论' })).data();
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        add(app.t, people[i % 5]!.ticket, { post_id: 24, content: `并发回复 ${i}`, ...(i % 2 ? { reply_id: root.id } : {}) }),
      ),
    );
    const mine = made.map((answer, i) => ({ id: answer.data().id, who: people[i % 5]! }));
    await Promise.all([
      ...mine.slice(0, 10).map(({ id, who }) => app.t.call(api.commentDelete, { comment_id: id }, { ticket: who.ticket })),
      app.t.call(api.commentDelete, { comment_id: root.id }, { ticket: people[0]!.ticket }),
      ...Array.from({ length: 5 }, (_, i) => add(app.t, people[i]!.ticket, { post_id: 24, content: `又一条 ${i}`, reply_id: mine[19]!.id })),
    ]);
    await allZero();
  });

  it('pages through all the replies of a comment with comment/replies, oldest first, without deleted ones, to visitors too', async () => {
    const [alice, bob] = [await app.t.login(freshPhone()), await app.t.login(freshPhone())];
    const root = (await add(app.t, alice.ticket, { post_id: postId, content: '楼主' })).data();
    const replies: Comment[] = [];
    for (let i = 1; i <= 8; i++) {
      const who = i % 2 === 0 ? alice : bob;
      // Some answer the root, some answer a reply: both live flat under the root.
      const replyId = i > 4 ? replies[0]!.id : root.id;
      replies.push((await add(app.t, who.ticket, { post_id: postId, content: `回复 ${i}`, reply_id: replyId })).data());
    }
    const gone = replies[4]!;
    expect((await app.t.call(api.commentDelete, { comment_id: gone.id }, { ticket: bob.ticket })).data()).toEqual({ comment_id: gone.id });
    await app.t.call(api.likeAdd, { comment_id: replies[5]!.id, client_id: newClientId('like') }, { ticket: alice.ticket });
    const live = replies.filter((reply) => reply.id !== gone.id);

    // comment/list carries the first three; comment/replies has them all, in pages.
    const listed = (await list(postId, alice.ticket)).find((c) => c.id === root.id)!;
    expect(listed.replies.map((r) => r.id)).toEqual(live.slice(0, 3).map((r) => r.id));
    expect(listed.reply_count).toBe(7);
    const pages: Paged<CommentBase>[] = [];
    let index = 0;
    for (;;) {
      const page = (await app.t.call<Paged<CommentBase>>(api.commentReplies, { comment_id: root.id, index, size: 3 }, { ticket: alice.ticket })).data();
      pages.push(page);
      if (!page.page.more) break;
      index = page.page.next_index;
    }
    expect(pages.map((page) => page.list.length)).toEqual([3, 3, 1]);
    const all = pages.flatMap((page) => page.list);
    expect(all.map((r) => r.id)).toEqual(live.map((r) => r.id));
    expect(all.map((r) => r.content)).toEqual(live.map((r) => r.content));
    // Each as comment/list shows a reply: who answers whom, the viewer's like.
    expect(all.slice(0, 3)).toEqual(listed.replies);
    const liked = all.find((r) => r.id === replies[5]!.id)!;
    expect(liked).toMatchObject({ like_count: 1, is_like: true, is_deleted: false, reply_user: { uid: bob.uid }, user: { uid: alice.uid } });
    expect(Object.keys(liked).sort()).toEqual(Object.keys(listed.replies[0]!).sort());

    // A visitor reads them too (likes as nobody's).
    const visitor = (await app.t.call<Paged<CommentBase>>(api.commentReplies, { comment_id: String(root.id), size: 50 })).data();
    expect(visitor.list.map((r) => r.id)).toEqual(live.map((r) => r.id));
    expect(visitor.list.find((r) => r.id === liked.id)?.is_like).toBe(false);
    expect(visitor.page).toEqual({ more: false, next_index: live.at(-1)!.id });

    // Past the last: an empty page; a comment without replies: empty too.
    expect((await app.t.call<Paged<CommentBase>>(api.commentReplies, { comment_id: root.id, index: live.at(-1)!.id })).data()).toEqual({
      list: [],
      page: { more: false, next_index: 0 },
    });
    const lone = (await add(app.t, bob.ticket, { post_id: postId, content: '没人回复' })).data();
    expect((await app.t.call<Paged<CommentBase>>(api.commentReplies, { comment_id: lone.id })).data().list).toEqual([]);
  });

  it('answers comment/replies with the envelope: -1004 for bad bodies, -1005 for what is no comment with replies', async () => {
    for (const body of [{}, { comment_id: 'x' }, { comment_id: 0 }, { comment_id: 1, size: 0 }, { comment_id: 1, size: 1000 }, { comment_id: 1, index: -1 }]) {
      const answer = await app.t.call(api.commentReplies, body);
      expect(answer.status).toBe(200);
      expect(codeOf(answer), JSON.stringify(body)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
    }
    const alice = await app.t.login(freshPhone());
    const root = (await add(app.t, alice.ticket, { post_id: postId, content: '有回复的评论' })).data();
    const reply = (await add(app.t, alice.ticket, { post_id: postId, content: '一条回复', reply_id: root.id })).data();
    expect(codeOf(await app.t.call(api.commentReplies, { comment_id: 99_999_999 }))).toBe(-1005);
    // A reply has no replies of its own: they live under its root.
    expect(codeOf(await app.t.call(api.commentReplies, { comment_id: reply.id }))).toBe(-1005);
    // Those of a deleted post are gone with it.
    const [own] = await queryRows<{ id: number }>(app.database.db, sql`select id::int as id from posts where deleted_at is null order by id desc limit 1 offset 1`);
    await givePost(app.database.db, alice.uid, own!.id);
    const onOwn = (await add(app.t, alice.ticket, { post_id: own!.id, content: '自己的动态' })).data();
    await add(app.t, alice.ticket, { post_id: own!.id, content: '自己的回复', reply_id: onOwn.id });
    expect((await app.t.call<Paged<CommentBase>>(api.commentReplies, { comment_id: onOwn.id })).data().list).toHaveLength(1);
    await app.t.call(api.postDelete, { post_id: own!.id }, { ticket: alice.ticket });
    expect(codeOf(await app.t.call(api.commentReplies, { comment_id: onOwn.id }))).toBe(-1005);
  });

  it('answers bad bodies with a Chinese -1004 and changes nothing', async () => {
    const me = await app.t.login(freshPhone());
    const before = await rowsOf(postId);
    const bodies: unknown[] = [
      {},
      { post_id: postId, content: '缺 client_id' },
      { post_id: postId, content: '', client_id: newClientId() },
      { post_id: postId, content: '   ', client_id: newClientId() },
      { post_id: postId, content: 'x'.repeat(1001), client_id: newClientId() },
      { post_id: postId, content: 5, client_id: newClientId() },
      { post_id: 'abc', content: '坏编号', client_id: newClientId() },
      { post_id: 99_999_999_999, content: '太大的编号', client_id: newClientId() },
      { post_id: postId, content: '坏回复', reply_id: '2147483648', client_id: newClientId() },
      { post_id: postId, content: 'client_id 太短', client_id: 'short' },
    ];
    for (const body of bodies) {
      const answer = await app.t.call(api.commentAdd, body, { ticket: me.ticket });
      expect(answer.status).toBe(200);
      expect(codeOf(answer), JSON.stringify(body)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
    }
    for (const body of [{}, { comment_id: 'x' }, { comment_id: 3_000_000_000 }, { comment_id: 0 }]) {
      const answer = await app.t.call(api.commentDelete, body, { ticket: me.ticket });
      expect(codeOf(answer), JSON.stringify(body)).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg)).toBe(true);
    }
    expect(codeOf(await app.t.call(api.commentAdd, { post_id: postId, content: '游客', client_id: newClientId() }))).toBe(-2000);
    expect(await rowsOf(postId)).toBe(before);
  });
});
