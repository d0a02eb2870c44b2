import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { ChannelCategory, ChannelDetail, Post, UserInfo } from '../../src/shared/schemas.ts';
import type { Paged } from '../../src/shared/schemas.ts';
import { sql } from 'drizzle-orm';
import { CREATE_TIME_MS } from '../../src/server/services/posts.ts';
import { errorOf, openTestApp, testAppFor, testDatabases, type TestApp } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

describe.each(testDatabases)('read calls on $name', ({ open }) => {
  const app = testAppFor(open);

  async function allPages(input: Record<string, unknown>, pages: number): Promise<Post[][]> {
    const result: Post[][] = [];
    let index = 0;
    for (let i = 0; i < pages; i++) {
      const page = (await app.t.call<Paged<Post>>(api.channelPosts, { ...input, index, size: 10 })).data();
      result.push(page.list);
      if (!page.page.more) break;
      index = page.page.next_index;
    }
    return result;
  }

  it('pages through all posts newest first with no gaps or repeats', async () => {
    const pages = await allPages({ tab: 'all' }, 4);
    expect(pages).toHaveLength(4);
    const ids = pages.flat().map((post) => post.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const times = pages.flat().map((post) => post.create_time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const first = pages[0]![0]!;
    expect(first.user.nick).toBeTruthy();
    expect(first.channels.length).toBeGreaterThan(0);
    expect(first.is_like).toBe(false);
  });

  it('gives create_time as round(extract(epoch from created_at) * 1000), half-way milliseconds too', async () => {
    const exact = 'round(extract(epoch from p.created_at) * 1000)::float8';
    const pages = (await allPages({ tab: 'all' }, 3)).flat();
    const rows = await queryRows<{ id: number; exact: number }>(
      app.database.db,
      sql.raw(`select p.id, ${exact} as exact from posts p where p.id in (${pages.map((post) => post.id).join(',')})`),
    );
    const exactOf = new Map(rows.map((row) => [Number(row.id), Number(row.exact)]));
    for (const post of pages) expect(post.create_time, `post ${post.id}`).toBe(exactOf.get(post.id));
    // Times since 2000 every 997 µs, so every microsecond digit comes up, with 500 (half-way) among them.
    const [times] = await queryRows<{ n: number; differ: number }>(
      app.database.db,
      sql.raw(`select count(*)::int as n, count(*) filter (where ${CREATE_TIME_MS} <> ${exact})::int as differ from (
        select timestamptz '2000-01-01 00:00:00.0005+00' + make_interval(secs => g * 86400 * 365.25 * 26 / 20000) + make_interval(secs => g * 0.000997) as created_at
        from generate_series(0, 20000) g) p`),
    );
    expect(times).toEqual({ n: 20001, differ: 0 });
  });

  it('ends the last page with more false', async () => {
    const page = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', index: 3, size: 10 })).data();
    expect(page.page.more).toBe(false);
    expect(page.list.map((post) => post.id)).toEqual([2, 1]);
  });

  it('filters by channel and by featured', async () => {
    const byChannel = (await app.t.call<Paged<Post>>(api.channelPosts, { channel_id: 1, size: 20 })).data();
    expect(byChannel.list.length).toBeGreaterThan(0);
    for (const post of byChannel.list) expect(post.channels.map((c) => c.channel_id)).toContain(1);
    const good = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'good', size: 20 })).data();
    expect(good.list.length).toBeGreaterThan(0);
    for (const post of good.list) expect(post.is_good).toBe(true);
  });

  it('asks for login on the follow tab when logged out, and shows followed channels when logged in', async () => {
    const loggedOut = await app.t.call(api.channelPosts, { tab: 'follow' });
    expect(errorOf(loggedOut.body)?.code).toBe(-2000);
    const { ticket } = await app.t.login('13800000000');
    const followed = (await app.t.call<{ list: { channel_id: number }[] }>(api.userChannelList, { visit_user_id: 1 })).data();
    const followedIds = new Set(followed.list.map((c) => c.channel_id));
    expect(followedIds.size).toBeGreaterThan(0);
    const feed = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'follow', size: 20 }, { ticket })).data();
    expect(feed.list.length).toBeGreaterThan(0);
    for (const post of feed.list) expect(post.channels.some((c) => followedIds.has(c.channel_id))).toBe(true);
  });

  it('returns one post, with attachments of both kinds somewhere in the feed', async () => {
    const detail = (await app.t.call<Post>(api.postDetail, { post_id: 5 })).data();
    expect(detail.id).toBe(5);
    const many = (await app.t.call<Paged<Post>>(api.channelPosts, { size: 50 })).data().list;
    const more = (await app.t.call<Paged<Post>>(api.channelPosts, { size: 50, index: many.at(-1)!.id })).data().list;
    const attach = [...many, ...more].flatMap((post) => post.attach);
    const image = attach.find((a) => a.type === 'image');
    expect(image).toBeDefined();
    expect(attach.some((a) => a.type === 'code')).toBe(true);
    expect([...many, ...more].some((post) => post.vote && post.vote.options.length >= 2)).toBe(true);
    // Images of posts are served by the server.
    const img = await app.t.app.inject({ method: 'GET', url: image!.type === 'image' ? image!.url : '' });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toMatch(/^image\//);
  });

  it("answers a post's pictures and code preview from its row, without post_images or code_snippets", async () => {
    const db = app.database.db;
    const newestWith = async (type: 'image' | 'code') =>
      (await queryRows<{ id: number }>(
        db,
        sql`select id::int as id from posts where attach::jsonb @> ${JSON.stringify([{ type }])}::jsonb order by id desc limit 1`,
      ))[0]!.id;
    for (const postId of [await newestWith('image'), await newestWith('code')]) {
      const pageOf = async () =>
        (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', index: postId + 1, size: 1 })).data().list[0]!;
      const detail = (await app.t.call<Post>(api.postDetail, { post_id: postId })).data();
      expect(detail.attach.length).toBeGreaterThan(0);
      expect(await pageOf()).toEqual(detail);
      const pictures = await queryRows<Record<string, unknown>>(db, sql`select * from post_images where post_id = ${postId}`);
      const snippets = await queryRows<Record<string, unknown>>(db, sql`select * from code_snippets where post_id = ${postId}`);
      expect(pictures.length + snippets.length).toBe(detail.attach.length);
      await db.execute(sql`delete from post_images where post_id = ${postId}`);
      await db.execute(sql`delete from code_snippets where post_id = ${postId}`);
      try {
        expect((await app.t.call<Post>(api.postDetail, { post_id: postId })).data()).toEqual(detail);
        expect(await pageOf()).toEqual(detail);
      } finally {
        for (const row of pictures) {
          await db.execute(sql`insert into post_images (id, post_id, url, width, height, sort)
            values (${row.id}, ${row.post_id}, ${row.url}, ${row.width}, ${row.height}, ${row.sort})`);
        }
        for (const row of snippets) {
          await db.execute(sql`insert into code_snippets (uuid, post_id, language, title, code, sort)
            values (${row.uuid}, ${row.post_id}, ${row.language}, ${row.title}, ${row.code}, ${row.sort})`);
        }
      }
    }
  });

  it('answers -1005 for a post that does not exist', async () => {
    const missing = await app.t.call(api.postDetail, { post_id: 999999 });
    expect(missing.status).toBe(200);
    expect(errorOf(missing.body)?.code).toBe(-1005);
  });

  it('rejects wrong-typed and malformed bodies with -1004 and a message, never a 500', async () => {
    const wrongType = await app.t.call(api.postDetail, { post_id: 'abc' });
    expect(wrongType.status).toBe(200);
    expect(errorOf(wrongType.body)?.code).toBe(-1004);
    expect(errorOf(wrongType.body)?.msg).toContain('post_id');

    const negative = await app.t.call(api.channelPosts, { size: 1000 });
    expect(errorOf(negative.body)?.code).toBe(-1004);

    const notJson = await app.t.call(api.channelPosts, {}, { rawBody: '{"tab":' });
    expect(notJson.status).toBe(200);
    expect(errorOf(notJson.body)).toEqual({ code: -1004, msg: '请求体不是有效的 JSON' });

    const badTab = await app.t.call(api.channelPosts, { tab: 'hot' });
    expect(errorOf(badTab.body)?.code).toBe(-1004);

    const neither = await app.t.call(api.userInfo, { data_mode: 1 });
    expect(errorOf(neither.body)?.code).toBe(-1004);
  });

  it('answers channel detail, categories and recommendations', async () => {
    const channel = (await app.t.call<ChannelDetail>(api.channelDetail, { channel_id: 1 })).data();
    expect(channel.channel_name).toBeTruthy();
    expect(errorOf((await app.t.call(api.channelDetail, { channel_id: 9999 })).body)?.code).toBe(-1005);

    const categories = (await app.t.call<{ list: ChannelCategory[] }>(api.categoryChannel, {})).data().list;
    expect(categories.length).toBeGreaterThanOrEqual(3);
    expect(categories.flatMap((c) => c.list).length).toBeGreaterThanOrEqual(10);

    const recommended = (await app.t.call<{ list: ChannelDetail[] }>(api.recommendChannelList, {})).data().list;
    expect(recommended.length).toBeGreaterThan(0);
    const counts = recommended.map((c) => c.follower_count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  });

  it('answers the sidebar explore list and the race_medals config with parsed content', async () => {
    const explore = (
      await app.t.call<{ info: { list: { title: string; id: number; redirect_param: string }[] } }>(api.exploreList, {
        page: 'horde',
        block_name: 'sidebar',
      })
    ).data();
    expect(explore.info.list.length).toBeGreaterThan(0);
    expect(explore.info.list[0]).toEqual({ title: expect.any(String), id: expect.any(Number), redirect_param: expect.any(String) });

    const config = (await app.t.call<{ list: { key: string; content: unknown }[] }>(api.configList, { keys: ['race_medals'] })).data();
    expect(config.list).toHaveLength(1);
    expect(typeof config.list[0]!.content).toBe('object');
  });

  it('answers user info by numeric id and by ucode alike', async () => {
    const byId = (await app.t.call<UserInfo>(api.userInfo, { data_mode: 1, visit_user_id: 2 })).data();
    const byCode = (await app.t.call<UserInfo>(api.userInfo, { data_mode: 1, visit_ucode: byId.ucode })).data();
    expect(byCode).toEqual(byId);
    expect(byId.post_count).toBeGreaterThanOrEqual(0);
    expect(errorOf((await app.t.call(api.userInfo, { visit_ucode: 'nobody' })).body)?.code).toBe(-1005);
  });

  it("answers an author's posts by id and by ucode alike, -1005 for a user that does not exist, an empty page for one with no posts", async () => {
    const byId = (await app.t.call<Paged<Post>>(api.userPosts, { visit_user_id: 2, size: 3 })).data();
    const { ucode } = (await app.t.call<UserInfo>(api.userInfo, { visit_user_id: 2 })).data();
    expect((await app.t.call<Paged<Post>>(api.userPosts, { visit_ucode: ucode, size: 3 })).data()).toEqual(byId);
    expect(byId.list.length).toBeGreaterThan(0);
    for (const missing of [{ visit_user_id: 987_654 }, { visit_ucode: 'nobody' }]) {
      expect(errorOf((await app.t.call(api.userPosts, missing)).body)?.code).toBe(-1005);
    }
    const { uid } = await app.t.login('15600930001');
    expect((await app.t.call<Paged<Post>>(api.userPosts, { visit_user_id: uid })).data()).toEqual({ list: [], page: { more: false, next_index: 0 } });
  });

  it('answers 404 with the envelope for an unknown API path', async () => {
    const response = await app.t.app.inject({ method: 'POST', url: '/serv/v1/nothing', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: -1, error: { code: -1005 } });
  });
});

describe('OpenAPI docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t?.close());

  it('are generated from the shared schemas and served at /docs', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, unknown> };
    const served = Object.values(api).filter((endpoint) => t.app.hasRoute({ method: endpoint.method, url: endpoint.path }));
    expect(served.length).toBeGreaterThanOrEqual(20);
    for (const endpoint of served) expect(spec.paths).toHaveProperty(endpoint.path);
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
  });
});

describe('compression', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t?.close());

  it('compresses a feed page for clients that accept brotli or gzip, and not for those that do not', async () => {
    const page = (encoding?: string) =>
      t.app.inject({
        method: 'POST',
        url: api.channelPosts.path,
        headers: { 'content-type': 'application/json', ...(encoding ? { 'accept-encoding': encoding } : {}) },
        payload: { size: 20 },
      });
    const plain = await page();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await page('br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect((await page('gzip')).headers['content-encoding']).toBe('gzip');
  });

  it('sends baseline security headers with every answer', async () => {
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/serv/v1/user/auth' }),
      await t.app.inject({ method: 'POST', url: '/serv/v1/nothing', payload: {} }),
    ]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });
});
