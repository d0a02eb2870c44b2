/**
 * Moderation, on PGlite and on PostgreSQL: only a moderator (the moderators table, set by the
 * operator's tool) reads the review queue and the audit log and acts; anyone else is refused
 * -1006 and nothing changes. A hidden post or comment leaves every list, count and search for
 * everyone but its author, who reads it with the reason; restore puts it back. A suspended user
 * reads as before, and every write answers -1014 saying until when; a write answered before the
 * suspension still replays. Each action closes the target's open complaints and writes one row of
 * the audit log, which refuses UPDATE and DELETE. Writes happen once per client_id.
 * AUTO_HIDE_COMPLAINTS distinct complaints hide a post at once, exactly once under concurrent
 * complaints (two apps, each with its own pool, on one PostgreSQL database).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { AUTO_HIDE_REASON } from '../../src/shared/constants.ts';
import { routes, type EndpointName } from '../../src/shared/endpoints.ts';
import type {
  Comment,
  CommentBase,
  ModerationLogEntry,
  ModerationQueueItem,
  ModerationResult,
  Notice,
  Paged,
  Post,
  SearchHit,
  SuspensionResult,
  UserInfo,
} from '../../src/shared/schemas.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { DEMO_MODERATOR_CELLPHONE } from '../../src/server/seed/seed.ts';
import { channels, posts, topics, users } from '../../src/server/db/schema.ts';
import { chinaMinute } from '../../src/server/errors.ts';
import { runModeratorCommand } from '../../src/server/services/moderators.ts';
import {
  codeOf,
  createTestApp,
  errorOf,
  isChineseMessage,
  newClientId,
  phoneSource,
  schemaProblem,
  testAppFor,
  testDatabases,
  type TestApp,
} from '../support/api.ts';
import { counterMismatches, migrationsFolder, queryRows } from '../support/db.ts';
import { makePng, multipart } from '../support/images.ts';
import { samples, seededFixtures, type SampleFixtures } from '../support/samples.ts';

type Session = { ticket: string; uid: number };

const MODERATION_CALLS = (Object.keys(routes) as EndpointName[]).filter((name) => routes[name].path.startsWith('/serv/v1/moderation/'));

describe.each(testDatabases)('moderation on $name', ({ name, open }) => {
  const app = testAppFor(open, { WRITE_LIMIT_PER_MINUTE: '100000', DAILY_POST_LIMIT: '100000', DAILY_COMPLAINT_LIMIT: '100000' });
  const freshPhone = phoneSource(name === 'PGlite' ? '1590011' : '1590012');
  let moderator: Session;
  let author: Session;
  let reader: Session;

  beforeAll(async () => {
    moderator = await app.t.login(DEMO_MODERATOR_CELLPHONE);
    author = await app.t.login(freshPhone());
    reader = await app.t.login(freshPhone());
    // The feed of followed channels is one of the lists a hidden post leaves.
    for (const who of [reader, author]) await call(api.followChannel, { channel_id: 3 }, who);
  });

  const call = async <T>(endpoint: (typeof api)[EndpointName], input: unknown, who: Session | undefined): Promise<T> =>
    (await app.t.call<T>(endpoint, input, { ticket: who?.ticket })).data();
  const answerOf = (endpoint: (typeof api)[EndpointName], input: unknown, who: Session | undefined) =>
    app.t.call(endpoint, input, { ticket: who?.ticket });
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(app.database.db, query);
  const auditCount = async () => Number((await rows<{ n: number }>(sql`select count(*)::int as n from moderation_actions`))[0]!.n);

  /** A featured post of the author's in channel 3 with a topic of its own and a word only it holds. */
  async function authorPost(word: string, who: Session = author): Promise<Post> {
    const post = await call<Post>(api.postAdd, { content: `${word} 审核测试的动态`, channel_id: [3], topic_tags: `#${word}话题#`, client_id: newClientId('mod') }, who);
    await app.database.db.update(posts).set({ isGood: true }).where(eq(posts.id, post.id));
    return post;
  }
  const complain = (who: Session, target_type: string, target_id: number, content = '') =>
    answerOf(api.complainAdd, { target_type, target_id, reason: 'spam', content, client_id: newClientId('mod-complain') }, who);
  const hide = (target_type: string, target_id: number, reason = '违反社区规范', who: Session = moderator) =>
    answerOf(api.moderationHide, { target_type, target_id, reason, client_id: newClientId('mod-hide') }, who);
  const restore = (target_type: string, target_id: number, who: Session = moderator) =>
    answerOf(api.moderationRestore, { target_type, target_id, client_id: newClientId('mod-restore') }, who);

  /** Every list a post can be in, as `who` reads it: which hold it. */
  async function listsHolding(post: Post, who: Session | undefined, word: string): Promise<string[]> {
    const [topic] = await rows<{ id: number }>(sql`select id from topics where name = ${`${word}话题`}`);
    const lists: [string, EndpointName, Record<string, unknown>][] = [
      ['all', 'channelPosts', { tab: 'all', size: 50 }],
      ['good', 'channelPosts', { tab: 'good', size: 50 }],
      ['channel', 'channelPosts', { channel_id: 3, size: 50 }],
      ['topic', 'topicPosts', { topic_id: topic!.id, size: 50 }],
      ['user', 'userPosts', { visit_user_id: post.user.uid, size: 50 }],
      ...(who ? ([['follow', 'channelPosts', { tab: 'follow', size: 50 }]] as [string, EndpointName, Record<string, unknown>][]) : []),
    ];
    const holding: string[] = [];
    for (const [label, endpoint, input] of lists) {
      const page = await call<Paged<Post>>(api[endpoint], input, who);
      const found = page.list.find((item) => item.id === post.id);
      if (found) holding.push(label);
    }
    const hits = await call<Paged<SearchHit>>(api.search, { q: word, type: 'post' }, who);
    if (hits.list.some((hit) => hit.type === 'post' && hit.post.id === post.id)) holding.push('search');
    if (codeOf(await answerOf(api.postDetail, { post_id: post.id }, who)) === undefined) holding.push('detail');
    if (codeOf(await answerOf(api.commentList, { post_id: post.id }, who)) === undefined) holding.push('comments');
    if (codeOf(await answerOf(api.likeList, { post_id: post.id }, who)) === undefined) holding.push('likers');
    return holding;
  }
  const EVERYWHERE = ['all', 'good', 'channel', 'topic', 'user', 'follow', 'search', 'detail', 'comments', 'likers'];

  async function counts(post: Post) {
    const [channel] = await app.database.db.select({ n: channels.postCount }).from(channels).where(eq(channels.id, 3));
    const [topic] = await app.database.db.select({ n: topics.postCount }).from(topics).where(eq(topics.id, post.topics[0]!.topic_id));
    const info = await call<UserInfo>(api.userInfo, { visit_user_id: post.user.uid }, reader);
    return { channel: channel!.n, topic: topic!.n, user: info.post_count };
  }

  it('refuses every moderation call to a user who is not a moderator (-1006 in Chinese), and to visitors and ended or forged tickets (-2000); nothing changes', async () => {
    const post = await authorPost('拒绝甲');
    await complain(reader, 'post', post.id);
    const ended = await app.t.login(freshPhone());
    await answerOf(api.logout, {}, ended);
    const bodies: Record<string, unknown> = {
      moderationQueue: {},
      moderationLog: {},
      moderationHide: { target_type: 'post', target_id: post.id, reason: '试图隐藏' },
      moderationRestore: { target_type: 'post', target_id: post.id },
      moderationDismiss: { target_type: 'post', target_id: post.id },
      moderationSuspend: { user_id: author.uid, days: 7, reason: '试图禁言' },
      moderationLift: { user_id: author.uid },
    };
    expect(MODERATION_CALLS.sort()).toEqual(Object.keys(bodies).sort());
    const before = await auditCount();
    for (const endpoint of MODERATION_CALLS) {
      const body = { ...(bodies[endpoint] as object), ...(routes[endpoint].kind === 'write' ? { client_id: newClientId('refused') } : {}) };
      for (const who of [reader, author]) {
        const answer = await answerOf(api[endpoint], body, who);
        expect(errorOf(answer.body), endpoint).toEqual({ code: -1006, msg: '仅管理员可以进行此操作' });
      }
      for (const ticket of [undefined, ended.ticket, 'F'.repeat(43)]) {
        expect(codeOf(await app.t.call(api[endpoint], body, { ticket })), `${endpoint} with ${ticket ?? 'no ticket'}`).toBe(-2000);
      }
    }
    expect(await auditCount()).toBe(before);
    expect(await rows(sql`select closed_at from complaints where target_type = 'post' and target_id = ${post.id}`)).toEqual([{ closed_at: null }]);
    expect(await listsHolding(post, reader, '拒绝甲')).toEqual(EVERYWHERE);
    expect(await rows(sql`select suspended_until from users where id = ${author.uid}`)).toEqual([{ suspended_until: null }]);
  });

  it('hides a post from every list, count and search for everyone but its author, who reads it with the reason; restore puts it back', async () => {
    const word = '隐藏乙';
    const post = await authorPost(word);
    await call(api.likeAdd, { post_id: post.id }, reader);
    await call<Comment>(api.commentAdd, { post_id: post.id, content: '一条评论', client_id: newClientId('mod') }, reader);
    await complain(reader, 'post', post.id, '这是广告');
    const shown = await counts(post);
    expect(await listsHolding(post, reader, word)).toEqual(EVERYWHERE);

    const hidden = (await hide('post', post.id, '含有广告链接')).data() as ModerationResult;
    expect(hidden).toMatchObject({ target_type: 'post', target_id: post.id, closed_complaints: 1, hidden: true });
    for (const who of [reader, undefined, moderator]) expect(await listsHolding(post, who, word), `as ${who?.uid ?? 'visitor'}`).toEqual([]);
    expect(await counts(post)).toEqual({ channel: shown.channel - 1, topic: shown.topic - 1, user: shown.user - 1 });
    // Its author reads it in their own centre and its detail, marked, and nowhere else.
    expect(await listsHolding(post, author, word)).toEqual(['user', 'detail', 'comments', 'likers']);
    const mine = await call<Post>(api.postDetail, { post_id: post.id }, author);
    expect(mine).toMatchObject({ id: post.id, hidden: true, hidden_reason: '含有广告链接', content: post.content });
    expect(schemaProblem(api.postDetail, mine)).toBeNull();
    const centre = await call<Paged<Post>>(api.userPosts, { visit_user_id: author.uid, size: 50 }, author);
    expect(centre.list.find((item) => item.id === post.id)).toMatchObject({ hidden: true, hidden_reason: '含有广告链接' });
    expect(centre.list.filter((item) => item.id !== post.id).every((item) => !('hidden' in item) && !('hidden_reason' in item))).toBe(true);
    // Nobody else may like, comment on or vote on it.
    expect(codeOf(await answerOf(api.likeCancel, { post_id: post.id }, reader))).toBe(-1005);
    expect(codeOf(await answerOf(api.commentAdd, { post_id: post.id, content: '还能评论吗', client_id: newClientId('mod') }, reader))).toBe(-1005);
    expect(Object.values(await counterMismatches(app.database.db)).every((n) => n === 0)).toBe(true);
    expect(await rows(sql`select outcome from complaints where target_type = 'post' and target_id = ${post.id}`)).toEqual([{ outcome: 'hidden' }]);
    // The author is told with the reason, the complainant what became of the complaint; no moderator is named.
    const latestNotice = async (who: Session) => (await call<Paged<Notice>>(api.noticeList, { size: 1 }, who)).list[0];
    expect(await latestNotice(author)).toMatchObject({
      type: 'moderation',
      actors: [],
      actor_count: 0,
      post_id: post.id,
      content_excerpt: '你的动态已被隐藏，理由：含有广告链接',
      route: `/message/detail/${post.id}`,
      unread: true,
    });
    expect(await latestNotice(reader)).toMatchObject({ type: 'moderation', content_excerpt: '你举报的动态已被隐藏，感谢你的反馈' });
    expect(schemaProblem(api.noticeList, await call(api.noticeList, {}, author))).toBeNull();

    const restored = (await restore('post', post.id)).data() as ModerationResult;
    expect(restored).toMatchObject({ closed_complaints: 0, hidden: false });
    expect(await listsHolding(post, reader, word)).toEqual(EVERYWHERE);
    expect(await counts(post)).toEqual(shown);
    expect('hidden' in (await call<Post>(api.postDetail, { post_id: post.id }, author))).toBe(false);
    expect(Object.values(await counterMismatches(app.database.db)).every((n) => n === 0)).toBe(true);
  });

  it('hides a comment and a reply from everyone but their author; a hidden comment with replies keeps its place, emptied; the counts follow', async () => {
    const post = await authorPost('评论丙');
    const root = await call<Comment>(api.commentAdd, { post_id: post.id, content: '被隐藏的评论', client_id: newClientId('mod') }, reader);
    const reply = await call<Comment>(api.commentAdd, { post_id: post.id, content: '一条回复', reply_id: root.id, client_id: newClientId('mod') }, author);
    const badReply = await call<Comment>(api.commentAdd, { post_id: post.id, content: '被隐藏的回复', reply_id: root.id, client_id: newClientId('mod') }, reader);
    const count = async () => (await call<Post>(api.postDetail, { post_id: post.id }, undefined)).comment_count;
    expect(await count()).toBe(3);

    expect((await hide('comment', badReply.id, '人身攻击')).data()).toMatchObject({ hidden: true });
    expect(await count()).toBe(2);
    const replies = async (who: Session | undefined) =>
      (await call<Paged<CommentBase>>(api.commentReplies, { comment_id: root.id }, who)).list.map((item) => [item.id, item.hidden ?? false]);
    expect(await replies(author)).toEqual([[reply.id, false]]);
    expect(await replies(undefined)).toEqual([[reply.id, false]]);
    expect(await replies(reader)).toEqual([
      [reply.id, false],
      [badReply.id, true],
    ]);

    expect((await hide('comment', root.id, '广告')).data()).toMatchObject({ hidden: true });
    expect(await count()).toBe(1);
    const list = async (who: Session | undefined) => (await call<Paged<Comment>>(api.commentList, { post_id: post.id }, who)).list;
    // Others see the hidden comment's place (it has a reply), with neither its words nor the reason.
    for (const who of [author, undefined]) {
      const [shown] = await list(who);
      expect(shown).toMatchObject({ id: root.id, content: '', is_deleted: true, hidden: true, reply_count: 1 });
      expect(shown).not.toHaveProperty('hidden_reason');
      expect(shown!.replies.map((item) => item.id)).toEqual([reply.id]);
      expect(schemaProblem(api.commentList, { list: [shown], page: { more: false, next_index: root.id } })).toBeNull();
    }
    const [own] = await list(reader);
    expect(own).toMatchObject({ id: root.id, content: '被隐藏的评论', is_deleted: false, hidden: true, hidden_reason: '广告' });
    expect(own!.replies.map((item) => [item.id, item.hidden_reason ?? null])).toEqual([
      [reply.id, null],
      [badReply.id, '人身攻击'],
    ]);
    // Nobody else may like or answer it.
    expect(codeOf(await answerOf(api.likeAdd, { comment_id: root.id }, author))).toBe(-1005);
    expect(codeOf(await answerOf(api.commentAdd, { post_id: post.id, content: '回复', reply_id: root.id, client_id: newClientId('mod') }, author))).toBe(-1005);
    expect(Object.values(await counterMismatches(app.database.db)).every((n) => n === 0)).toBe(true);

    await restore('comment', root.id).then((answer) => answer.data());
    await restore('comment', badReply.id).then((answer) => answer.data());
    expect(await count()).toBe(3);
    expect((await list(undefined))[0]).toMatchObject({ id: root.id, content: '被隐藏的评论', is_deleted: false });
    expect((await list(undefined))[0]).not.toHaveProperty('hidden');
    // Deleting a hidden comment does not count it out twice.
    await hide('comment', badReply.id).then((answer) => answer.data());
    await call(api.commentDelete, { comment_id: badReply.id }, reader);
    expect(await count()).toBe(2);
    expect(Object.values(await counterMismatches(app.database.db)).every((n) => n === 0)).toBe(true);
  });

  it('deletes a hidden post without counting it out twice', async () => {
    const post = await authorPost('删除丁');
    const shown = await counts(post);
    await hide('post', post.id).then((answer) => answer.data());
    await call(api.postDelete, { post_id: post.id }, author);
    expect(await counts(post)).toEqual({ channel: shown.channel - 1, topic: shown.topic - 1, user: shown.user - 1 });
    expect(Object.values(await counterMismatches(app.database.db)).every((n) => n === 0)).toBe(true);
  });

  it('refuses a moderator their own content and account, and another moderator’s suspension (-1006, Chinese)', async () => {
    const other = await app.t.login(freshPhone());
    expect(await runModeratorCommand(app.database.db, ['add', String(other.uid)])).toMatch(/is now a moderator$/);
    const own = await authorPost('自己戊', moderator);
    const ownMessage = { code: -1006, msg: '不能处理自己的内容或账号' };
    expect(errorOf((await hide('post', own.id)).body)).toEqual(ownMessage);
    expect(errorOf((await restore('post', own.id)).body)).toEqual(ownMessage);
    expect(errorOf((await answerOf(api.moderationSuspend, { user_id: moderator.uid, days: 1, reason: '自己', client_id: newClientId('m') }, moderator)).body)).toEqual(ownMessage);
    expect(errorOf((await answerOf(api.moderationSuspend, { user_id: other.uid, days: 1, reason: '同事', client_id: newClientId('m') }, moderator)).body)).toEqual({
      code: -1006,
      msg: '不能禁言其他管理员',
    });
    // The other moderator may act on it.
    expect((await hide('post', own.id, '测试', other)).data()).toMatchObject({ hidden: true });
    expect(await runModeratorCommand(app.database.db, ['remove', String(other.uid)])).toMatch(/is no longer a moderator$/);
    expect(codeOf(await hide('post', own.id, '测试', other))).toBe(-1006);
    expect(await runModeratorCommand(app.database.db, ['list'])).toContain(`uid ${moderator.uid}`);
  });

  it('acts once per client_id: a replay answers the first answer and writes no second row; another body is -1009', async () => {
    const post = await authorPost('一次己');
    const body = { target_type: 'post', target_id: post.id, reason: '重复', client_id: newClientId('mod-once') };
    const before = await auditCount();
    const answers = await Promise.all(Array.from({ length: 4 }, () => answerOf(api.moderationHide, body, moderator)));
    const results = answers.map((answer) => answer.data() as ModerationResult);
    expect(new Set(results.map((result) => result.action_id)).size).toBe(1);
    expect(await auditCount()).toBe(before + 1);
    expect(codeOf(await answerOf(api.moderationHide, { ...body, reason: '另一个理由' }, moderator))).toBe(-1009);
  });

  it('suspends a user: reads as before, every write answers -1014 until when, a write answered before replays; lift ends it', async () => {
    const user = await app.t.login(freshPhone());
    const earlier = { post_id: 5, content: '禁言前的评论', client_id: newClientId('before') };
    const comment = await call<Comment>(api.commentAdd, earlier, user);
    await complain(reader, 'user', user.uid, '骂人');
    const suspension = (await answerOf(api.moderationSuspend, { user_id: user.uid, days: 7, reason: '辱骂他人', client_id: newClientId('s') }, moderator)).data() as SuspensionResult;
    expect(suspension).toMatchObject({ user_id: user.uid, suspended: true, closed_complaints: 1 });
    expect(Math.abs(suspension.suspended_until! - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    const message = `账号已被禁言，至 ${chinaMinute(suspension.suspended_until!)} 解除`;
    const [told] = (await call<Paged<Notice>>(api.noticeList, { size: 1 }, user)).list;
    expect(told).toMatchObject({ type: 'moderation', content_excerpt: `你的${message}，理由：辱骂他人`, route: `/usercenter/${user.uid}` });

    // Every write of the route table but logout, and the picture upload.
    const fixtures: SampleFixtures = { ...(await seededFixtures(app.database.db)), loginPhone: '', loginCode: '', codePhone: '' };
    const writes = (Object.keys(routes) as EndpointName[]).filter((n) => routes[n].kind === 'write' && routes[n].auth === 'required' && n !== 'logout');
    expect(writes.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const endpoint of writes) {
      const answer = await app.t.call(api[endpoint], samples[endpoint](fixtures), { ticket: user.ticket });
      const error = errorOf(answer.body);
      if (error?.code !== -1014 || error.msg !== message) wrong.push(`${endpoint}: ${JSON.stringify(answer.body)}`);
    }
    expect(wrong).toEqual([]);
    const form = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: await makePng(8, 6) }]);
    const uploaded = await app.t.app.inject({ method: 'POST', url: '/serv/v1/upload/image', cookies: { GCESS: user.ticket }, headers: form.headers, payload: form.payload });
    expect(uploaded.json()).toEqual({ code: -1, error: { code: -1014, msg: message } });
    // A write answered before the suspension answers as it did.
    expect(await call<Comment>(api.commentAdd, earlier, user)).toEqual(comment);
    // Reads as before.
    expect(codeOf(await answerOf(api.channelPosts, { tab: 'all' }, user))).toBeUndefined();
    expect(codeOf(await answerOf(api.noticeUnreadCount, {}, user))).toBeUndefined();

    // The end as the clock reads it, in China time; and for good.
    await app.database.db.update(users).set({ suspendedUntil: new Date('2099-12-06T04:00:00Z') }).where(eq(users.id, user.uid));
    expect(errorOf((await answerOf(api.followUser, { user_id: 3 }, user)).body)).toEqual({ code: -1014, msg: '账号已被禁言，至 2099-12-06 12:00 解除' });
    await app.database.db.execute(sql`update users set suspended_until = 'infinity' where id = ${user.uid}`);
    expect(errorOf((await answerOf(api.followUser, { user_id: 3 }, user)).body)).toEqual({ code: -1014, msg: '账号已被永久禁言' });
    // Once its end has passed, the user writes again.
    await app.database.db.update(users).set({ suspendedUntil: new Date(Date.now() - 1000) }).where(eq(users.id, user.uid));
    expect(codeOf(await answerOf(api.followUser, { user_id: 3 }, user))).toBeUndefined();

    const forever = (await answerOf(api.moderationSuspend, { user_id: user.uid, days: 'forever', reason: '屡教不改', client_id: newClientId('s') }, moderator)).data() as SuspensionResult;
    expect(forever).toMatchObject({ suspended: true, suspended_until: null });
    expect(errorOf((await answerOf(api.likeAdd, { post_id: 5 }, user)).body)).toEqual({ code: -1014, msg: '账号已被永久禁言' });
    const lifted = (await answerOf(api.moderationLift, { user_id: user.uid, client_id: newClientId('s') }, moderator)).data() as SuspensionResult;
    expect(lifted).toMatchObject({ suspended: false, suspended_until: null });
    expect(codeOf(await answerOf(api.likeAdd, { post_id: 5 }, user))).toBeUndefined();
    expect(isChineseMessage(message)).toBe(true);
  });

  it('queues open complaints by target: automatically hidden first, then the most reported, then the oldest; dismiss closes them', async () => {
    const t = await createTestApp(app.database, { env: { AUTO_HIDE_COMPLAINTS: '3', WRITE_LIMIT_PER_MINUTE: '100000', DAILY_COMPLAINT_LIMIT: '100000' } });
    try {
      // Earlier complaints of other tests are closed first: the queue holds only this test's.
      await app.database.db.execute(sql`update complaints set closed_at = now(), outcome = 'dismissed' where closed_at is null`);
      const complainers = [];
      for (let i = 0; i < 4; i++) complainers.push(await t.login(freshPhone()));
      const old = await authorPost('队列庚');
      const busy = await authorPost('队列辛');
      const flood = await authorPost('队列壬');
      const byAuthor = await call<Comment>(api.commentAdd, { post_id: 5, content: '被举报的评论', client_id: newClientId('mod') }, author);
      const report = (who: Session, type: string, id: number, content = '') =>
        t.call(api.complainAdd, { target_type: type, target_id: id, reason: 'abuse', content, client_id: newClientId('q') }, { ticket: who.ticket });
      await report(complainers[0]!, 'post', old.id, '最早的举报');
      await report(complainers[0]!, 'post', busy.id);
      await report(complainers[1]!, 'post', busy.id);
      await report(complainers[0]!, 'comment', byAuthor.id, '评论举报');
      await report(complainers[0]!, 'user', author.uid, '用户举报');
      for (const who of complainers.slice(0, 3)) await report(who, 'post', flood.id);

      const queue = (await t.call<Paged<ModerationQueueItem>>(api.moderationQueue, { size: 10 }, { ticket: moderator.ticket })).data();
      expect(schemaProblem(api.moderationQueue, queue)).toBeNull();
      expect(queue.list.map((item) => [item.target_type, item.target_id, item.complaint_count, item.auto_hidden])).toEqual([
        ['post', flood.id, 3, true],
        ['post', busy.id, 2, false],
        ['post', old.id, 1, false],
        ['comment', byAuthor.id, 1, false],
        ['user', author.uid, 1, false],
      ]);
      const [floodItem, , oldItem, commentItem, userItem] = queue.list;
      expect(floodItem).toMatchObject({ hidden: true, hidden_reason: AUTO_HIDE_REASON, gone: false, reasons: [{ reason: 'abuse', text: '人身攻击', count: 3 }] });
      expect(floodItem!.post).toMatchObject({ id: flood.id, content: flood.content, hidden: true });
      expect(floodItem!.author.user.uid).toBe(author.uid);
      expect(floodItem!.author.recent_posts.map((p) => p.id).slice(0, 3)).toEqual([flood.id, busy.id, old.id]);
      expect(floodItem!.author.actions.map((a) => [a.action, a.target_id, a.moderator])).toContainEqual(['auto_hide', flood.id, null]);
      expect(oldItem!.complaints).toEqual([{ reason: 'abuse', content: '最早的举报', create_time: expect.any(Number) }]);
      expect(commentItem!.comment).toMatchObject({ id: byAuthor.id, content: '被举报的评论', hidden: false });
      expect(userItem).toMatchObject({ post: null, comment: null, author: { user: { uid: author.uid }, suspended: false } });
      const paged = (await t.call<Paged<ModerationQueueItem>>(api.moderationQueue, { size: 2, index: 2 }, { ticket: moderator.ticket })).data();
      expect(paged.list.map((item) => item.target_id)).toEqual([old.id, byAuthor.id]);
      expect(paged.page).toEqual({ more: true, next_index: 4 });

      // Dismiss: the automatic hide is undone, the complaints closed; the queue moves on.
      const dismissed = (await t.call<ModerationResult>(api.moderationDismiss, { target_type: 'post', target_id: flood.id, client_id: newClientId('d') }, { ticket: moderator.ticket })).data();
      expect(dismissed).toMatchObject({ closed_complaints: 3, hidden: false });
      expect(codeOf(await t.call(api.postDetail, { post_id: flood.id }))).toBeUndefined();
      await t.call(api.moderationDismiss, { target_type: 'user', target_id: author.uid, client_id: newClientId('d') }, { ticket: moderator.ticket }).then((a) => a.data());
      const after = (await t.call<Paged<ModerationQueueItem>>(api.moderationQueue, {}, { ticket: moderator.ticket })).data();
      expect(after.list.map((item) => item.target_id)).toEqual([busy.id, old.id, byAuthor.id]);
      expect(await rows(sql`select outcome, count(*)::int as n from complaints where target_id = ${flood.id} and target_type = 'post' group by outcome`)).toEqual([
        { outcome: 'dismissed', n: 3 },
      ]);

      // The log, newest first, by user.
      const log = (await t.call<Paged<ModerationLogEntry>>(api.moderationLog, { user_id: author.uid, size: 3 }, { ticket: moderator.ticket })).data();
      expect(schemaProblem(api.moderationLog, log)).toBeNull();
      expect(log.list.map((entry) => [entry.action, entry.target_type, entry.target_id])).toEqual([
        ['dismiss', 'user', author.uid],
        ['dismiss', 'post', flood.id],
        ['auto_hide', 'post', flood.id],
      ]);
      expect(log.list[0]!.moderator?.uid).toBe(moderator.uid);
      const next = (await t.call<Paged<ModerationLogEntry>>(api.moderationLog, { user_id: author.uid, size: 3, index: log.page.next_index }, { ticket: moderator.ticket })).data();
      expect(next.list.every((entry) => entry.id < log.list.at(-1)!.id)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('hides a post automatically at the AUTO_HIDE_COMPLAINTS-th distinct complaint, once; after a restore, complaints only queue it', async () => {
    const t = await createTestApp(app.database, { env: { AUTO_HIDE_COMPLAINTS: '3', WRITE_LIMIT_PER_MINUTE: '100000', DAILY_COMPLAINT_LIMIT: '100000' } });
    try {
      const post = await authorPost('自动癸');
      const report = async (who: Session) =>
        t.call(api.complainAdd, { target_type: 'post', target_id: post.id, reason: 'spam', content: '', client_id: newClientId('auto') }, { ticket: who.ticket });
      const visible = async () => codeOf(await t.call(api.postDetail, { post_id: post.id })) === undefined;
      const people = [];
      for (let i = 0; i < 7; i++) people.push(await t.login(freshPhone()));
      await report(people[0]!);
      await report(people[1]!);
      expect(codeOf(await report(people[1]!))).toBe(-1011);
      expect(await visible()).toBe(true);
      await report(people[2]!).then((answer) => answer.data());
      expect(await visible()).toBe(false);
      await report(people[3]!).then((answer) => answer.data());
      const autoRows = () => rows<{ n: number }>(sql`select count(*)::int as n from moderation_actions where action = 'auto_hide' and target_id = ${post.id}`);
      expect(await autoRows()).toEqual([{ n: 1 }]);
      expect((await call<Post>(api.postDetail, { post_id: post.id }, author)).hidden_reason).toBe(AUTO_HIDE_REASON);

      await restore('post', post.id).then((answer) => answer.data());
      for (const who of people.slice(4)) await report(who).then((answer) => answer.data());
      expect(await visible()).toBe(true);
      expect(await autoRows()).toEqual([{ n: 1 }]);
      const open = await rows<{ n: number }>(sql`select count(*)::int as n from complaints where target_id = ${post.id} and target_type = 'post' and closed_at is null`);
      expect(open).toEqual([{ n: 3 }]);
      expect(Object.values(await counterMismatches(app.database.db)).every((n) => n === 0)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('keeps the audit log append-only: UPDATE and DELETE are refused', async () => {
    await expect(app.database.db.execute(sql`update moderation_actions set reason = '改写'`)).rejects.toThrow();
    await expect(app.database.db.execute(sql`delete from moderation_actions`)).rejects.toThrow();
    expect(await auditCount()).toBeGreaterThan(0);
  });

  it('answers bad moderation bodies with a Chinese -1004', async () => {
    const bad: [EndpointName, Record<string, unknown>][] = [
      ['moderationHide', { target_type: 'user', target_id: 1, reason: 'x' }],
      ['moderationHide', { target_type: 'post', target_id: 1, reason: '   ' }],
      ['moderationHide', { target_type: 'post', target_id: 1, reason: '字'.repeat(201) }],
      ['moderationSuspend', { user_id: 3, days: 3, reason: '三天' }],
      ['moderationSuspend', { user_id: 3, days: 7 }],
      ['moderationDismiss', { target_type: 'channel', target_id: 1 }],
    ];
    for (const [endpoint, body] of bad) {
      const answer = await answerOf(api[endpoint], { client_id: newClientId('bad'), ...body }, moderator);
      expect(codeOf(answer), `${endpoint} ${JSON.stringify(body)}`).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), errorOf(answer.body)?.msg).toBe(true);
    }
    expect(codeOf(await hide('post', 2_000_000_000))).toBe(-1005);
    expect(codeOf(await answerOf(api.moderationSuspend, { user_id: 2_000_000_000, days: 1, reason: '无人', client_id: newClientId('bad') }, moderator))).toBe(-1005);
  });
});

describe('concurrent complaints on PostgreSQL from two apps (each with its own pool)', () => {
  const THRESHOLD = 5;
  let opened: { database: Database; url: string; stop(): Promise<void> };
  let second: Database;
  let apps: TestApp[] = [];
  const freshPhone = phoneSource('1590013');

  beforeAll(async () => {
    opened = (await testDatabases[1]!.open()) as typeof opened;
    second = await openDatabase({ databaseUrl: opened.url, migrationsFolder });
    const env = { AUTO_HIDE_COMPLAINTS: String(THRESHOLD), WRITE_LIMIT_PER_MINUTE: '100000', DAILY_COMPLAINT_LIMIT: '100000' };
    apps = [await createTestApp(opened.database, { env }), await createTestApp(second, { env })];
  }, 120_000);
  afterAll(async () => {
    for (const t of apps) await t.close();
    await second?.close();
    await opened?.database.close();
    await opened?.stop();
  });

  it('hides exactly once, at exactly the threshold, however the complaints interleave', { timeout: 240_000 }, async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const author = await a.login(freshPhone());
    const people: Session[] = [];
    for (let i = 0; i < 12; i++) people.push(await (i % 2 ? b : a).login(freshPhone()));
    for (let trial = 0; trial < 6; trial++) {
      const post = (await a.call<Post>(api.postAdd, { content: `并发举报 ${trial}`, channel_id: [1], client_id: newClientId('race') }, { ticket: author.ticket })).data();
      // Exactly the threshold at once (even trials), or more than it (odd ones).
      const reporters = people.slice(0, trial % 2 ? 12 : THRESHOLD);
      const answers = await Promise.all(
        reporters.map((who, i) =>
          (i % 2 ? b : a).call(api.complainAdd, { target_type: 'post', target_id: post.id, reason: 'spam', content: '', client_id: newClientId('race') }, { ticket: who.ticket }),
        ),
      );
      expect(answers.map((answer) => codeOf(answer))).toEqual(reporters.map(() => undefined));
      const hides = await queryRows<{ n: number }>(opened.database.db, sql`select count(*)::int as n from moderation_actions where target_type = 'post' and target_id = ${post.id}`);
      expect(hides, `trial ${trial}`).toEqual([{ n: 1 }]);
      expect(codeOf(await b.call(api.postDetail, { post_id: post.id }))).toBe(-1005);
    }
    expect(Object.values(await counterMismatches(opened.database.db)).every((n) => n === 0)).toBe(true);
  });
});
