/**
 * post/add, on PostgreSQL (behaviour: one engine): a post with pictures (the user's own uploads),
 * a code snippet, topics (existing and new) and a poll is answered in the shape every list
 * serves, and leads /home, its channels, its topics and its author's list; counters follow
 * exactly. Exactly once per client_id (replays answer the original, five at once make one post,
 * another body -1009); daily cap -2006; bad bodies, unknown channels, someone else's pictures,
 * a poll ending in the past: a Chinese error and nothing written.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api, type Endpoint } from '../../src/shared/api.ts';
import { POST_MAX_LENGTH, VOTE_MAX_DURATION_MS } from '../../src/shared/constants.ts';
import type { ChannelDetail, CodeSnippet, Paged, Post, TopicDetail, UploadedImage, UserInfo } from '../../src/shared/schemas.ts';
import { imageIdOfUrl } from '../../src/server/services/post-add.ts';
import {
  codeOf,
  createTestApp,
  errorOf,
  isChineseMessage,
  newClientId,
  phoneSource,
  testAppFor,
  behaviourDatabases,
  type TestApp,
} from '../support/api.ts';
import { counterMismatches, queryRows } from '../support/db.ts';
import { makeJpeg, makePng, upload } from '../support/images.ts';

const DAY = 24 * 3600_000;

describe('imageIdOfUrl', () => {
  it('takes /img/{id}, with a query, or an absolute URL of this host; nothing else', () => {
    expect(imageIdOfUrl('/img/abc123', 'example.com')).toBe('abc123');
    expect(imageIdOfUrl('/img/abc123?w=320', 'example.com')).toBe('abc123');
    expect(imageIdOfUrl('https://example.com/img/abc123', 'example.com')).toBe('abc123');
    expect(imageIdOfUrl('http://EXAMPLE.com:3000/img/abc123?w=80', 'example.com')).toBe('abc123');
    for (const url of [
      'https://evil.example/img/abc123',
      '//example.com/img/abc123',
      'javascript:alert(1)',
      '/img/abc123/x',
      '/img/../serv/v1/user/auth',
      '/static/abc123',
      'img/abc123',
      '/img/',
      `/img/${'a'.repeat(65)}`,
      'https://example.com.evil.example/img/abc123',
    ]) {
      expect(imageIdOfUrl(url, 'example.com'), url).toBeNull();
    }
  });
});

describe.each(behaviourDatabases)('post/add on $name', ({ open }) => {
  const app = testAppFor(open);
  const freshPhone = phoneSource('1560008');

  const allZero = async () => {
    const mismatches = await counterMismatches(app.database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  };
  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(app.database.db, query))[0]!.n;
  const postCount = () => count(sql`select count(*)::int as n from posts`);
  const uploadPicture = async (ticket: string, picture?: Buffer): Promise<UploadedImage> => {
    const { body } = await upload(app.t, ticket, picture ?? (await makePng(30, 20)));
    if (body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(body)}`);
    return body.data;
  };
  const add = (t: TestApp, body: Record<string, unknown>, ticket?: string) => t.call<Post>(api.postAdd, body, { ticket });
  /** A post the schema takes, with a fresh client_id. */
  const simple = (extra: Record<string, unknown> = {}) => ({ content: '一条新动态', channel_id: [1], client_id: newClientId('add'), ...extra });

  it('writes a post with pictures, code, topics and a poll, answered as lists serve it, leading every list it belongs to', async () => {
    const alice = await app.t.login(freshPhone());
    const [existing] = await queryRows<{ id: number; name: string; post_count: number }>(
      app.database.db,
      sql`select id, name, post_count from topics order by id limit 1`,
    );
    const newTopic = `新话题${process.pid % 1000}`;
    const wide = await uploadPicture(alice.ticket, await makeJpeg(64, 48));
    const tall = await uploadPicture(alice.ticket, await makePng(20, 40));
    const channelIds = [3, 1];
    const channel = async (id: number) => (await app.t.call<ChannelDetail>(api.channelDetail, { channel_id: id })).data().post_count;
    const channelsBefore = [await channel(3), await channel(1)];
    const endTime = Date.now() + 3 * DAY;
    const code = 'def hello():\n' + Array.from({ length: 12 }, (_, i) => `    print(${i})`).join('\n');
    const body = {
      content: '  第一条带图、代码、话题和投票的动态  ',
      channel_id: channelIds.map(String),
      attach: [
        // The size a client claims is ignored: the upload's is kept. Both url forms name the upload.
        { type: 'image', url: `${wide.url}?w=320`, width: 1, height: 1 },
        { type: 'image', url: `http://localhost:3000${tall.url}` },
        { type: 'code', language: 'python', title: ' 打招呼 ', code },
      ],
      topic_tags: `#${existing!.name}# #${newTopic}#`,
      vote: { title: '喜欢哪种语言？', multiple: true, options: ['Python', 'Go', 'Rust'], end_time: endTime },
      client_id: newClientId('full'),
    };
    const post = (await add(app.t, body, alice.ticket)).data();

    expect(post).toMatchObject({
      user: { uid: alice.uid, is_follow: false },
      content: '第一条带图、代码、话题和投票的动态',
      channels: expect.arrayContaining([expect.objectContaining({ channel_id: 1 }), expect.objectContaining({ channel_id: 3 })]),
      like_count: 0,
      comment_count: 0,
      is_like: false,
      is_good: false,
    });
    expect(post.channels).toHaveLength(2);
    expect(Math.abs(post.create_time - Date.now())).toBeLessThan(60_000);
    expect(post.topics.map((t) => t.topic_name).sort()).toEqual([existing!.name, newTopic].sort());
    expect(post.topics.find((t) => t.topic_name === existing!.name)?.topic_id).toBe(existing!.id);
    expect(post.attach).toEqual([
      { type: 'image', url: wide.url, width: 64, height: 48 },
      { type: 'image', url: tall.url, width: 20, height: 40 },
      { type: 'code', uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), language: 'python', title: '打招呼', preview: code.split('\n').slice(0, 8).join('\n') },
    ]);
    expect(post.vote).toMatchObject({ title: '喜欢哪种语言？', multiple: true, end_time: endTime, total: 0, is_voted: false });
    expect(post.vote?.options.map((o) => [o.text, o.count, o.is_voted])).toEqual([
      ['Python', 0, false],
      ['Go', 0, false],
      ['Rust', 0, false],
    ]);

    // The same post from the detail and at the head of every list it belongs to.
    expect((await app.t.call<Post>(api.postDetail, { post_id: post.id }, { ticket: alice.ticket })).data()).toEqual(post);
    const newTopicId = post.topics.find((t) => t.topic_name === newTopic)!.topic_id;
    const lists: [Endpoint, Record<string, unknown>][] = [
      [api.channelPosts, { tab: 'all' }],
      [api.channelPosts, {}],
      [api.channelPosts, { channel_id: 1 }],
      [api.channelPosts, { channel_id: 3 }],
      [api.topicPosts, { topic_id: existing!.id }],
      [api.topicPosts, { topic_id: newTopicId }],
      [api.userPosts, { visit_user_id: alice.uid }],
    ];
    for (const [endpoint, input] of lists) {
      const first = (await app.t.call<Paged<Post>>(endpoint, { ...input, size: 3 }, { ticket: alice.ticket })).data().list[0];
      expect(first, `${endpoint.path} ${JSON.stringify(input)}`).toEqual(post);
    }

    // The whole snippet by its uuid (the client's /code/{postid}/{uuid}).
    const uuid = (post.attach[2] as { uuid: string }).uuid;
    expect((await app.t.call<CodeSnippet>(api.codeDetail, { post_id: post.id, uuid })).data()).toEqual({
      uuid,
      post_id: post.id,
      language: 'python',
      title: '打招呼',
      code,
    });
    // The pictures are served where the post says.
    for (const item of post.attach.slice(0, 2)) {
      expect((await app.t.app.inject({ method: 'GET', url: (item as { url: string }).url })).statusCode).toBe(200);
    }

    // Counters: channels, topics (the new one at 1), the author.
    expect([await channel(3), await channel(1)]).toEqual(channelsBefore.map((n) => n + 1));
    const topic = async (id: number) => (await app.t.call<TopicDetail>(api.topicDetail, { topic_id: id })).data();
    expect((await topic(existing!.id)).post_count).toBe(existing!.post_count + 1);
    expect(await topic(newTopicId)).toMatchObject({ topic_name: newTopic, post_count: 1 });
    expect((await app.t.call<UserInfo>(api.userInfo, { data_mode: 1, visit_user_id: alice.uid })).data().post_count).toBe(1);
    // Others can vote on it.
    const bob = await app.t.login(freshPhone());
    const voted = await app.t.call(api.voteSubmit, { post_id: post.id, option_ids: [post.vote!.options[1]!.option_id], client_id: newClientId() }, { ticket: bob.ticket });
    expect(codeOf(voted)).toBeUndefined();
    await allZero();
  });

  it('answers a replay with the original post and writes nothing; another body with the same client_id is -1009', async () => {
    const me = await app.t.login(freshPhone());
    const body = simple({ topic_tags: '重放话题' });
    const first = (await add(app.t, body, me.ticket)).data();
    const before = await postCount();
    const again = await add(app.t, body, me.ticket);
    expect(again.data()).toEqual(first);
    expect(await postCount()).toBe(before);
    const other = await add(app.t, { ...body, content: '改过的内容' }, me.ticket);
    expect(errorOf(other.body)).toEqual({ code: -1009, msg: '重复请求与原请求不一致' });
    // The same client_id of another user is that user's own post.
    const someoneElse = await app.t.login(freshPhone());
    const theirs = (await add(app.t, body, someoneElse.ticket)).data();
    expect(theirs.id).not.toBe(first.id);
    expect(theirs.user.uid).toBe(someoneElse.uid);
    await allZero();
  });

  it('makes one post of five concurrent sends of one client_id, and one topic of concurrent posts naming a new one', async () => {
    const me = await app.t.login(freshPhone());
    const before = await postCount();
    const body = simple({ channel_id: [2, 5], topic_tags: '并发话题甲' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => add(app.t, body, me.ticket)));
    const ids = answers.map((answer) => answer.data().id);
    expect(new Set(ids).size).toBe(1);
    expect(await postCount()).toBe(before + 1);

    const people = await Promise.all(Array.from({ length: 5 }, () => app.t.login(freshPhone())));
    const posts = await Promise.all(
      people.map((person, i) => add(app.t, simple({ channel_id: [2, 5, 7].slice(0, 1 + (i % 3)), topic_tags: `#并发话题乙# #并发话题甲#` }), person.ticket)),
    );
    for (const post of posts) expect(codeOf(post), JSON.stringify(post.body)).toBeUndefined();
    const topics = await queryRows<{ name: string; post_count: number }>(
      app.database.db,
      sql`select name, post_count from topics where name like '并发话题%' order by name`,
    );
    expect(topics).toEqual([
      { name: '并发话题乙', post_count: 5 },
      { name: '并发话题甲', post_count: 6 },
    ]);
    await allZero();
  });

  it('counts content as SPEC section 5 does: exactly POST_MAX_LENGTH is taken, one more is -1004', async () => {
    const me = await app.t.login(freshPhone());
    const fits = ['a'.repeat(POST_MAX_LENGTH), '中'.repeat(POST_MAX_LENGTH / 2), '😀'.repeat(POST_MAX_LENGTH / 4), `${'中'.repeat(POST_MAX_LENGTH / 2 - 2)}😀`];
    for (const content of fits) {
      const answer = await add(app.t, simple({ content }), me.ticket);
      expect(codeOf(answer), `${content.slice(0, 3)}… (${content.length})`).toBeUndefined();
      expect(answer.data().content).toBe(content);
    }
    const over = [`${'a'.repeat(POST_MAX_LENGTH)}b`, `${'中'.repeat(POST_MAX_LENGTH / 2)}a`, `${'😀'.repeat(POST_MAX_LENGTH / 4)}中`, `${'a'.repeat(POST_MAX_LENGTH - 3)}😀`];
    const before = await postCount();
    for (const content of over) {
      const answer = await add(app.t, simple({ content }), me.ticket);
      expect(codeOf(answer), `${content.slice(0, 3)}… (${content.length})`).toBe(-1004);
      expect(errorOf(answer.body)?.msg).toContain(String(POST_MAX_LENGTH));
    }
    expect(await postCount()).toBe(before);
  });

  it('answers each bad body with a Chinese -1004 and writes nothing', async () => {
    const me = await app.t.login(freshPhone());
    const picture = await uploadPicture(me.ticket);
    const image = { type: 'image', url: picture.url };
    const code = { type: 'code', language: 'js', title: '', code: 'let a = 1;' };
    const vote = { title: '投票', options: ['甲', '乙'] };
    const now = Date.now();
    const bad: [string, unknown][] = [
      ['no body', undefined],
      ['content missing', { channel_id: [1], client_id: newClientId() }],
      ['content empty', simple({ content: '' })],
      ['content blank', simple({ content: ' \n\t ' })],
      ['content a number', simple({ content: 42 })],
      ['no channel', simple({ channel_id: [] })],
      ['channel missing', { content: '内容', client_id: newClientId() }],
      ['four channels', simple({ channel_id: [1, 2, 3, 4] })],
      ['the same channel twice', simple({ channel_id: [1, 1] })],
      ['a channel not a number', simple({ channel_id: ['x'] })],
      ['a channel id beyond int4', simple({ channel_id: [2_147_483_648] })],
      ['ten pictures', simple({ attach: Array.from({ length: 10 }, (_, i) => ({ type: 'image', url: `/img/p${i}` })) })],
      ['the same picture twice', simple({ attach: [image, image] })],
      ['the same picture twice in two forms', simple({ attach: [image, { ...image, url: `${picture.url}?w=80` }] })],
      ['two code snippets', simple({ attach: [code, code] })],
      ['blank code', simple({ attach: [{ ...code, code: '   ' }] })],
      ['code without a language', simple({ attach: [{ ...code, language: '' }] })],
      ['an attachment of an unknown type', simple({ attach: [{ type: 'video', url: '/v/1' }] })],
      ['a picture at another host', simple({ attach: [{ type: 'image', url: `https://evil.example${picture.url}` }] })],
      ['a picture url that is not ours', simple({ attach: [{ type: 'image', url: 'javascript:alert(1)' }] })],
      ['a picture that does not exist', simple({ attach: [{ type: 'image', url: '/img/00000000000000000000000000000000' }] })],
      ['six topics', simple({ topic_tags: '#一# #二# #三# #四# #五# #六#' })],
      ['a topic of 21 characters', simple({ topic_tags: `#${'话'.repeat(21)}#` })],
      ['topics not text', simple({ topic_tags: ['a'] })],
      ['a poll of one option', simple({ vote: { ...vote, options: ['甲'] } })],
      ['a poll with the same option twice', simple({ vote: { ...vote, options: ['甲', '甲'] } })],
      ['a poll without a title', simple({ vote: { ...vote, title: ' ' } })],
      ['a poll that ended', simple({ vote: { ...vote, end_time: now - 60_000 } })],
      ['a poll that ended, in seconds', simple({ vote: { ...vote, end_time: Math.floor(now / 1000) - 60 } })],
      ['a poll ending in more than a year', simple({ vote: { ...vote, end_time: now + VOTE_MAX_DURATION_MS + DAY } })],
      ['a poll end of 14 digits', simple({ vote: { ...vote, end_time: 10_000_000_000_000 } })],
      ['no client_id', { content: '内容', channel_id: [1] }],
      ['a short client_id', simple({ client_id: 'x' })],
    ];
    const before = { posts: await postCount(), images: await count(sql`select count(*)::int as n from post_images`) };
    for (const [what, body] of bad) {
      const answer = body === undefined ? await app.t.call(api.postAdd, {}, { ticket: me.ticket, rawBody: '' }) : await add(app.t, body as Record<string, unknown>, me.ticket);
      expect(answer.status, what).toBe(200);
      expect(codeOf(answer), `${what}: ${JSON.stringify(answer.body)}`).toBe(-1004);
      expect(isChineseMessage(errorOf(answer.body)?.msg), `${what}: ${errorOf(answer.body)?.msg}`).toBe(true);
    }
    expect({ posts: await postCount(), images: await count(sql`select count(*)::int as n from post_images`) }).toEqual(before);
    // A poll ending in seconds (10 digits) is read as seconds.
    const inSeconds = Math.floor(now / 1000) + 3600;
    expect((await add(app.t, simple({ vote: { ...vote, end_time: inSeconds } }), me.ticket)).data().vote?.end_time).toBe(inSeconds * 1000);
    await allZero();
  });

  it("refuses someone else's picture, an unknown channel and a visitor, writing nothing", async () => {
    const alice = await app.t.login(freshPhone());
    const bob = await app.t.login(freshPhone());
    const bobs = await uploadPicture(bob.ticket);
    const mine = await uploadPicture(alice.ticket);
    const before = await postCount();

    const theft = await add(app.t, simple({ attach: [{ type: 'image', url: mine.url }, { type: 'image', url: bobs.url }] }), alice.ticket);
    expect(errorOf(theft.body)).toEqual({ code: -1004, msg: '第 2 张图片不存在或不是你上传的' });
    // A seeded picture of another user, too.
    const [seeded] = await queryRows<{ id: string }>(app.database.db, sql`select id from images where user_id <> ${alice.uid} limit 1`);
    expect(codeOf(await add(app.t, simple({ attach: [{ type: 'image', url: `/img/${seeded!.id}` }] }), alice.ticket))).toBe(-1004);

    const unknown = await add(app.t, simple({ channel_id: [1, 99999] }), alice.ticket);
    expect(errorOf(unknown.body)?.code).toBe(-1005);
    expect(errorOf(unknown.body)?.msg).toBe('频道不存在：99999');

    const visitor = await add(app.t, simple());
    expect([visitor.status, codeOf(visitor)]).toEqual([200, -2000]);
    expect(await postCount()).toBe(before);
    // None of it used up a post of the day: the pictures still make a post.
    expect(codeOf(await add(app.t, simple({ attach: [{ type: 'image', url: mine.url }] }), alice.ticket))).toBeUndefined();
    await allZero();
  });

  it('caps posts per day (-2006), counting only posts written', async () => {
    const capped = await createTestApp(app.database, { env: { DAILY_POST_LIMIT: '2' } });
    try {
      const me = await capped.login(freshPhone());
      expect(codeOf(await add(capped, simple({ channel_id: [99999] }), me.ticket))).toBe(-1005);
      expect(codeOf(await add(capped, simple({ vote: { title: '票', options: ['甲', '乙'], end_time: 1 } }), me.ticket))).toBe(-1004);
      expect(codeOf(await add(capped, simple(), me.ticket))).toBeUndefined();
      const second = simple();
      expect(codeOf(await add(capped, second, me.ticket))).toBeUndefined();
      const third = await add(capped, simple(), me.ticket);
      expect(errorOf(third.body)).toEqual({ code: -2006, msg: '今日操作已达上限' });
      // A replay of a written post is still answered.
      expect(codeOf(await add(capped, second, me.ticket))).toBeUndefined();
      expect((await capped.call<UserInfo>(api.userInfo, { visit_user_id: me.uid })).data().post_count).toBe(2);
    } finally {
      await capped.close();
    }
    await allZero();
  });
});
