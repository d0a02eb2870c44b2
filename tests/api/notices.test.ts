/**
 * Notices on PGlite and PostgreSQL: each cause (a comment on my post, a reply to my comment, a
 * like of my post or comment, a new follower) makes exactly one notice in its write's
 * transaction, a replay of the same client_id none, one's own actions none, a poll vote or a
 * channel follow none; a comment delete, an unlike, an unfollow and a post delete take theirs
 * back with the unread count; likes and follows group per target and China day, exact under
 * 20 concurrent likers; the switches hold from the next write; tabs filter, pages are keyset
 * pages; nobody reaches another user's notices. Each notice's previews are stored with it and
 * kept right as a moderator hides or shows a comment and as an answered comment is deleted.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { NOTICE_ACTORS_SHOWN, NOTICE_EXCERPT_CHARS, unreadCountTag } from '../../src/shared/constants.ts';
import type { Comment, Notice, NoticeSettings, Paged } from '../../src/shared/schemas.ts';
import { runModeratorCommand } from '../../src/server/services/moderators.ts';
import { newClientId, phoneSource, testAppFor, testDatabases } from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';
import { givePost, postWithVote } from './fixtures.ts';

type Person = { ticket: string; uid: number };

describe.each(testDatabases)('notices on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560032');

  /** Live seeded posts without a poll, handed out one per use so tests never share a post. */
  let spare: number[] | undefined;
  const freshPost = async (owner: Person): Promise<number> => {
    spare ??= (
      await queryRows<{ id: number }>(app.database.db, sql`select id::int as id from posts where deleted_at is null and not has_vote order by id`)
    ).map((row) => row.id);
    const id = spare.shift();
    if (id === undefined) throw new Error('no spare post');
    await givePost(app.database.db, owner.uid, id);
    return id;
  };
  const person = () => app.t.login(freshPhone());
  const call = async <T>(endpoint: Parameters<typeof app.t.call>[0], input: unknown, who: Person) =>
    (await app.t.call<T>(endpoint, input, { ticket: who.ticket })).data();
  const list = (who: Person, input: Record<string, unknown> = {}) => call<Paged<Notice>>(api.noticeList, { size: 50, ...input }, who);
  const unread = async (who: Person) => (await call<{ count: number }>(api.noticeUnreadCount, {}, who)).count;
  const comment = (who: Person, postId: number, content: string, extra: Record<string, unknown> = {}) =>
    call<Comment>(api.commentAdd, { post_id: postId, content, client_id: newClientId('notice'), ...extra }, who);
  const countersExact = async () => {
    const mismatches = await counterMismatches(app.database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  };
  const postText = async (id: number) =>
    (await queryRows<{ content: string }>(app.database.db, sql`select content from posts where id = ${id}`))[0]!.content;

  it('a comment on my post makes one notice; its replay none; my own comment none', async () => {
    const [me, other] = [await person(), await person()];
    const postId = await freshPost(me);
    const clientId = newClientId('replayed');
    const body = { post_id: postId, content: '  写得很好，\n请问第二步怎么做？ ', client_id: clientId };
    const made = await call<Comment>(api.commentAdd, body, other);
    expect((await call<Comment>(api.commentAdd, body, other)).id).toBe(made.id);
    await comment(me, postId, '我自己的评论');

    const { list: notices } = await list(me);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice).toMatchObject({
      type: 'comment',
      actor_count: 1,
      post_id: postId,
      comment_id: made.id,
      content_excerpt: '写得很好， 请问第二步怎么做？',
      route: `/message/detail/${postId}?comment=${made.id}`,
      unread: true,
    });
    expect(notice!.actors.map((a) => a.uid)).toEqual([other.uid]);
    expect(notice!.target_excerpt).toBe(Array.from((await postText(postId)).replace(/\s+/g, ' ').trim()).slice(0, 60).join(''));
    expect(Math.abs(notice!.update_time - Date.now())).toBeLessThan(60_000);
    expect(await unread(me)).toBe(1);
    expect((await list(other)).list).toEqual([]);
    await countersExact();
  });

  it('unread_count answers 304 with no body to a client holding the same count, and the new count once it changes', async () => {
    const [me, other] = [await person(), await person()];
    const ask = (tag?: string) =>
      app.t.app.inject({
        method: 'POST',
        url: api.noticeUnreadCount.path,
        payload: '{}',
        headers: { 'content-type': 'application/json', ...(tag ? { 'if-none-match': tag } : {}) },
        cookies: { GCESS: me.ticket },
      });
    const first = await ask();
    expect([first.statusCode, first.headers.etag]).toEqual([200, unreadCountTag(0)]);
    const same = await ask(unreadCountTag(0));
    expect([same.statusCode, same.body]).toEqual([304, '']);
    await comment(other, await freshPost(me), '新评论');
    const changed = await ask(unreadCountTag(0));
    expect([changed.statusCode, changed.headers.etag, changed.json()]).toEqual([200, unreadCountTag(1), { code: 0, data: { count: 1 } }]);
  });

  it('a reply to my comment notifies me (reply) and the post author (comment); on my own post, once (the reply)', async () => {
    const [author, me, replier] = [await person(), await person(), await person()];
    const postId = await freshPost(author);
    const mine = await comment(me, postId, '我的评论');
    const reply = await comment(replier, postId, '回复你的评论', { reply_id: mine.id });

    const [toMe] = (await list(me)).list;
    expect(toMe).toMatchObject({
      type: 'reply',
      comment_id: reply.id,
      target_excerpt: '我的评论',
      content_excerpt: '回复你的评论',
      route: `/message/detail/${postId}?comment=${reply.id}`,
    });
    expect((await list(me)).list).toHaveLength(1);
    // The author heard of both comments on the post.
    expect((await list(author)).list.map((n) => [n.type, n.comment_id])).toEqual([
      ['comment', reply.id],
      ['comment', mine.id],
    ]);

    const ownPost = await freshPost(me);
    const top = await comment(me, ownPost, '楼主自己的评论');
    const answer = await comment(replier, ownPost, '回复楼主', { reply_id: top.id });
    const onOwn = (await list(me)).list.filter((n) => n.post_id === ownPost);
    expect(onOwn.map((n) => [n.type, n.comment_id])).toEqual([['reply', answer.id]]);
    expect(await unread(me)).toBe(2);
    await countersExact();
  });

  it('likes of my post and my comment group per target; replays, repeats and my own like make none; an unlike takes its actor out', async () => {
    const [me, a, b] = [await person(), await person(), await person()];
    const postId = await freshPost(me);
    const mine = await comment(me, postId, '一条会被点赞的评论');
    const clientId = newClientId('like');
    await call(api.likeAdd, { post_id: postId, type: 1, client_id: clientId }, a);
    await call(api.likeAdd, { post_id: postId, type: 1, client_id: clientId }, a);
    await call(api.likeAdd, { post_id: postId, type: 1 }, a);
    await call(api.likeAdd, { post_id: postId, type: 1 }, me);
    await call(api.likeAdd, { post_id: postId, type: 1 }, b);
    await call(api.likeAdd, { comment_id: mine.id, type: 2 }, a);

    const { list: notices } = await list(me, { type: 'like' });
    expect(notices.map((n) => [n.type, n.post_id, n.comment_id, n.actor_count, n.actors.map((x) => x.uid)])).toEqual([
      ['like', postId, mine.id, 1, [a.uid]],
      ['like', postId, 0, 2, [b.uid, a.uid]],
    ]);
    expect(notices[0]).toMatchObject({ target_excerpt: '一条会被点赞的评论', content_excerpt: '', route: `/message/detail/${postId}?comment=${mine.id}` });
    expect(notices[1]).toMatchObject({ route: `/message/detail/${postId}`, content_excerpt: '' });
    expect(await unread(me)).toBe(2);

    await call(api.likeCancel, { post_id: postId, type: 1 }, b);
    await call(api.likeCancel, { post_id: postId, type: 1 }, b);
    const group = (await list(me, { type: 'like' })).list.find((n) => n.comment_id === 0)!;
    expect([group.actor_count, group.actors.map((x) => x.uid)]).toEqual([1, [a.uid]]);
    await call(api.likeCancel, { comment_id: mine.id, type: 2 }, a);
    await call(api.likeCancel, { post_id: postId, type: 1 }, a);
    expect((await list(me, { type: 'like' })).list).toEqual([]);
    expect(await unread(me)).toBe(0);
    await countersExact();
  });

  it('a new follower makes a follow notice opening their centre; an unfollow takes it back; channel follows and poll votes none', async () => {
    const [me, a, b] = [await person(), await person(), await person()];
    await call(api.followUser, { user_id: me.uid, client_id: newClientId('follow') }, a);
    await call(api.followUser, { user_id: me.uid }, b);
    const [follow] = (await list(me, { type: 'follow' })).list;
    expect(follow).toMatchObject({ type: 'follow', actor_count: 2, post_id: 0, comment_id: 0, target_excerpt: '', route: `/usercenter/${b.uid}` });
    expect(follow!.actors.map((x) => x.uid)).toEqual([b.uid, a.uid]);
    // is_follow is the viewer's: I follow a back.
    await call(api.followUser, { user_id: a.uid }, me);
    expect((await list(me, { type: 'follow' })).list[0]!.actors.map((x) => x.is_follow)).toEqual([false, true]);

    await call(api.unfollowUser, { user_id: me.uid }, b);
    expect((await list(me, { type: 'follow' })).list[0]).toMatchObject({ actor_count: 1, route: `/usercenter/${a.uid}` });
    await call(api.unfollowUser, { user_id: me.uid }, a);
    expect((await list(me)).list).toEqual([]);

    const { postId, options } = await postWithVote(app.database.db, false);
    await givePost(app.database.db, me.uid, postId);
    await call(api.voteSubmit, { post_id: postId, option_ids: [options[0]], client_id: newClientId('vote') }, a);
    await call(api.followChannel, { channel_id: 1 }, a);
    expect((await list(me)).list).toEqual([]);
    expect(await unread(me)).toBe(0);
    await countersExact();
  });

  it('deleting a comment removes the notices it made; deleting a post removes every notice about it', async () => {
    const [me, other, third] = [await person(), await person(), await person()];
    const postId = await freshPost(me);
    const made = await comment(other, postId, '将被删除的评论');
    const kept = await comment(third, postId, '留下的评论');
    await call(api.likeAdd, { comment_id: made.id }, third);
    expect(await unread(me)).toBe(2);
    expect(await unread(other)).toBe(1);
    await call(api.commentDelete, { comment_id: made.id }, other);
    expect((await list(me)).list.map((n) => n.comment_id)).toEqual([kept.id]);
    expect(await unread(me)).toBe(1);
    expect(await unread(other)).toBe(0);

    const mine = await comment(me, postId, '楼主的评论');
    await comment(other, postId, '回复楼主', { reply_id: mine.id });
    await call(api.likeAdd, { post_id: postId }, other);
    await call(api.likeAdd, { comment_id: mine.id }, other);
    expect(await unread(me)).toBe(4);
    await call(api.postDelete, { post_id: postId }, me);
    expect((await list(me)).list).toEqual([]);
    expect(await unread(me)).toBe(0);
    await countersExact();
  });

  it('previews are stored with each notice: a comment a moderator hides leaves them until shown again, a deleted answered comment leaves its replies', async () => {
    const [me, other, moderator] = [await person(), await person(), await person()];
    expect(await runModeratorCommand(app.database.db, ['add', String(moderator.uid)])).toMatch(/is now a moderator$/);
    const postId = await freshPost(me);
    const postExcerpt = Array.from((await postText(postId)).replace(/\s+/g, ' ').trim()).slice(0, NOTICE_EXCERPT_CHARS).join('');
    const mine = await comment(me, postId, '  我的\u3000评论\n\n第二行 ');
    const reply = await comment(other, postId, '一条会被隐藏的回复', { reply_id: mine.id });
    const plain = await comment(other, postId, `长评论${'很'.repeat(80)}`);
    const previews = async () =>
      Object.fromEntries((await list(me)).list.map((n) => [n.comment_id, [n.type, n.target_excerpt, n.content_excerpt]]));
    expect(await previews()).toEqual({
      [reply.id]: ['reply', '我的 评论 第二行', '一条会被隐藏的回复'],
      [plain.id]: ['comment', postExcerpt, `长评论${'很'.repeat(NOTICE_EXCERPT_CHARS - 3)}`],
    });
    // What the list shows is the notice's own: a post's row changed behind the app's back does not reach it.
    await app.database.db.execute(sql`update posts set content = '改过的正文' where id = ${postId}`);
    expect((await previews())[plain.id]).toEqual(['comment', postExcerpt, `长评论${'很'.repeat(NOTICE_EXCERPT_CHARS - 3)}`]);

    const moderate = (endpoint: typeof api.moderationHide | typeof api.moderationRestore) =>
      call(endpoint, { target_type: 'comment', target_id: reply.id, reason: '辱骂他人', client_id: newClientId('notice-mod') }, moderator);
    await moderate(api.moderationHide);
    expect((await previews())[reply.id]).toEqual(['reply', '我的 评论 第二行', '']);
    await moderate(api.moderationRestore);
    expect((await previews())[reply.id]).toEqual(['reply', '我的 评论 第二行', '一条会被隐藏的回复']);
    await call(api.commentDelete, { comment_id: mine.id }, me);
    expect((await previews())[reply.id]).toEqual(['reply', '', '一条会被隐藏的回复']);
  });

  it('20 concurrent likers make one group with actor_count 20 and one unread; a like after reading moves it to the top, unread again', async () => {
    const me = await person();
    const postId = await freshPost(me);
    const earlier = await freshPost(me);
    const likers: Person[] = [];
    for (let i = 0; i < 21; i++) likers.push(await person());
    const answers = await Promise.all(likers.slice(0, 20).map((who) => app.t.call(api.likeAdd, { post_id: postId, client_id: newClientId('many') }, { ticket: who.ticket })));
    for (const answer of answers) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);

    const { list: notices } = await list(me);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.actor_count).toBe(20);
    expect(notices[0]!.actors).toHaveLength(NOTICE_ACTORS_SHOWN);
    // Newest first: the three that joined last, in the order the actors table holds them.
    const order = await queryRows<{ actor_id: number }>(
      app.database.db,
      sql`select actor_id from notice_actors where notice_id = ${notices[0]!.id} order by seq desc limit 3`,
    );
    expect(notices[0]!.actors.map((a) => a.uid)).toEqual(order.map((r) => r.actor_id));
    expect(await unread(me)).toBe(1);

    await call(api.likeAdd, { post_id: earlier }, likers[0]!);
    expect((await list(me)).list.map((n) => n.post_id)).toEqual([earlier, postId]);
    expect(await call(api.noticeRead, {}, me)).toEqual({ count: 0 });
    await call(api.likeAdd, { post_id: postId }, likers[20]!);
    const after = (await list(me)).list;
    expect(after.map((n) => [n.id, n.unread, n.actor_count])).toEqual([
      [notices[0]!.id, true, 21],
      [after[1]!.id, false, 1],
    ]);
    expect(after[0]!.actors[0]!.uid).toBe(likers[20]!.uid);
    expect(await unread(me)).toBe(1);
    await countersExact();
  });

  it('crossing replies at once (each notifying both users of the other) all succeed, counts exact', async () => {
    const [a, b, c, d] = [await person(), await person(), await person(), await person()];
    const postOfA = await freshPost(a);
    const postOfB = await freshPost(b);
    // c answers b's comment on a's post while d answers a's comment on b's post: each reply
    // notifies a and b, in opposite orders.
    const ofB = await comment(b, postOfA, 'b 在 a 的动态下');
    const ofA = await comment(a, postOfB, 'a 在 b 的动态下');
    const replies = Array.from({ length: 24 }, (_, i) =>
      i % 2 === 0
        ? app.t.call(api.commentAdd, { post_id: postOfA, content: `回复 ${i}`, reply_id: ofB.id, client_id: newClientId('cross') }, { ticket: c.ticket })
        : app.t.call(api.commentAdd, { post_id: postOfB, content: `回复 ${i}`, reply_id: ofA.id, client_id: newClientId('cross') }, { ticket: d.ticket }),
    );
    for (const answer of await Promise.all(replies)) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    // a: b's comment, 12 comments on the post and 12 replies; b likewise.
    expect(await unread(a)).toBe(25);
    expect(await unread(b)).toBe(25);
    await countersExact();
  });

  it('groups per China day: a like on another day starts a new group', async () => {
    const [me, a, b] = [await person(), await person(), await person()];
    const postId = await freshPost(me);
    await call(api.likeAdd, { post_id: postId }, a);
    await app.database.db.execute(sql`update notices set day = day - 1 where user_id = ${me.uid}`);
    await call(api.likeAdd, { post_id: postId }, b);
    expect((await list(me)).list.map((n) => n.actors.map((x) => x.uid))).toEqual([[b.uid], [a.uid]]);
    // An unlike finds its actor's group whatever its day.
    await call(api.likeCancel, { post_id: postId }, a);
    expect((await list(me)).list.map((n) => n.actors.map((x) => x.uid))).toEqual([[b.uid]]);
    await countersExact();
  });

  it('settings: all on by default, read by an empty call, honoured from the next write on, each user their own', async () => {
    const [me, other, liker] = [await person(), await person(), await person()];
    expect(await call<NoticeSettings>(api.noticeSettings, {}, me)).toEqual({ comment: true, like: true, follow: true });
    expect(await call<NoticeSettings>(api.noticeSettings, { like: false, follow: false }, me)).toEqual({ comment: true, like: false, follow: false });
    expect(await call<NoticeSettings>(api.noticeSettings, {}, me)).toEqual({ comment: true, like: false, follow: false });
    expect(await call<NoticeSettings>(api.noticeSettings, {}, other)).toEqual({ comment: true, like: true, follow: true });

    const postId = await freshPost(me);
    const otherPost = await freshPost(other);
    await call(api.likeAdd, { post_id: postId }, liker);
    await call(api.followUser, { user_id: me.uid }, liker);
    await call(api.likeAdd, { post_id: otherPost }, liker);
    const made = await comment(liker, postId, '评论照常通知');
    expect((await list(me)).list.map((n) => [n.type, n.comment_id])).toEqual([['comment', made.id]]);
    expect((await list(other)).list.map((n) => n.type)).toEqual(['like']);

    await call(api.noticeSettings, { comment: false, like: true }, me);
    await comment(liker, postId, '不再通知的评论');
    await call(api.likeCancel, { post_id: postId }, liker);
    await call(api.likeAdd, { post_id: postId }, liker);
    expect((await list(me)).list.map((n) => n.type)).toEqual(['like', 'comment']);
    expect(await unread(me)).toBe(2);
    await countersExact();
  });

  it('tabs filter (评论 holds comments and replies) and pages are keyset pages in activity order', async () => {
    const [me, a, b] = [await person(), await person(), await person()];
    const postId = await freshPost(me);
    const mine = await comment(me, postId, '楼主的评论');
    await comment(a, postId, '第一条');
    await call(api.likeAdd, { post_id: postId }, a);
    await comment(b, postId, '回复', { reply_id: mine.id });
    await call(api.followUser, { user_id: me.uid }, a);
    await call(api.likeAdd, { comment_id: mine.id }, b);
    await comment(b, postId, '第二条');

    const all = (await list(me)).list;
    expect(all.map((n) => n.type)).toEqual(['comment', 'like', 'follow', 'reply', 'like', 'comment']);
    expect((await list(me, { type: 'comment' })).list.map((n) => n.type)).toEqual(['comment', 'reply', 'comment']);
    expect((await list(me, { type: 'like' })).list.map((n) => n.comment_id)).toEqual([mine.id, 0]);
    expect((await list(me, { type: 'follow' })).list).toHaveLength(1);

    const paged: number[] = [];
    let index = 0;
    for (let guard = 0; guard < 10; guard++) {
      const page = await list(me, { size: 4, index });
      paged.push(...page.list.map((n) => n.id));
      if (!page.page.more) break;
      index = page.page.next_index;
    }
    expect(paged).toEqual(all.map((n) => n.id));
    const commentPages = await list(me, { type: 'comment', size: 2 });
    expect(commentPages.page.more).toBe(true);
    expect((await list(me, { type: 'comment', size: 2, index: commentPages.page.next_index })).list.map((n) => n.type)).toEqual(['comment']);
  });

  it('read: up to a notice marks it and those before it, all when absent, once per client_id; another user’s notice is out of reach', async () => {
    const [me, intruder, a] = [await person(), await person(), await person()];
    const postId = await freshPost(me);
    for (const text of ['一', '二', '三', '四']) await comment(a, postId, text);
    await comment(me, await freshPost(intruder), '给闯入者的评论');
    const notices = (await list(me)).list;
    expect(await unread(me)).toBe(4);
    const theirs = (await list(intruder)).list;
    expect(theirs).toHaveLength(1);

    // The intruder names my notice: nothing of mine changes, they learn nothing but their own count.
    expect(await call(api.noticeRead, { up_to_id: notices[0]!.id }, intruder)).toEqual({ count: 1 });
    expect(await unread(me)).toBe(4);
    expect(await unread(intruder)).toBe(1);
    // And mine with theirs likewise.
    expect(await call(api.noticeRead, { up_to_id: theirs[0]!.id }, me)).toEqual({ count: 4 });
    expect(await unread(intruder)).toBe(1);

    const clientId = newClientId('read');
    expect(await call(api.noticeRead, { up_to_id: notices[2]!.id, client_id: clientId }, me)).toEqual({ count: 2 });
    expect((await list(me)).list.map((n) => n.unread)).toEqual([true, true, false, false]);
    // A new notice, then the replay: answered as first, marking nothing new.
    await comment(a, postId, '五');
    expect(await call(api.noticeRead, { up_to_id: notices[2]!.id, client_id: clientId }, me)).toEqual({ count: 2 });
    expect(await unread(me)).toBe(3);
    expect(await call(api.noticeRead, {}, me)).toEqual({ count: 0 });
    expect((await list(me)).list.every((n) => !n.unread)).toBe(true);
    expect(await unread(intruder)).toBe(1);
    await countersExact();
  });
});
