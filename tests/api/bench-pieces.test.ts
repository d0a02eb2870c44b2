/**
 * The pieces `npm run bench` stands on, kept from rotting by `npm test` (the bench itself runs
 * for minutes and asserts nothing): the anchor routes answer the envelope on the bench's own app
 * and are not the server's, the raw keyset anchor pages as a keyset page does, the raw search
 * anchor finds what search/ finds, the card anchors send the app's own cards less their names,
 * the bulk loader leaves every counter and copy consistent and
 * its summary true and its posts searchable, and the load generator
 * (load.ts, a process of its own) drives a listening server and reports what it did, sending
 * bodies in turn with fresh client_ids at a held rate (the stall group's writer). Nothing here
 * is timed.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, type Endpoint } from '../../src/shared/api.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import type { Paged, Post, SearchHit } from '../../src/shared/schemas.ts';
import { loadConfig, projectRoot } from '../../src/server/config.ts';
import { DEMO_USER_CELLPHONE } from '../../src/server/seed/seed.ts';
import type { Database } from '../../src/server/db/client.ts';
import { bulkLoad, type BulkLoadSummary, type SqlRunner } from '../bench/bulk-load.ts';
import type { LoadResult, LoadSpec } from '../bench/load.ts';
import { BENCH_ANCHOR_PATHS, buildAnchoredApp } from '../bench/server-anchors.ts';
import { createTestApp, newClientId, type TestApp } from '../support/api.ts';
import { counterMismatches, openTestDatabase, queryRows, sqlRunnerOf } from '../support/db.ts';

const run = promisify(execFile);

interface AnchorPage {
  list: { id: number | string; content: string; created_at: string }[];
  page: { more: boolean; next_index: number };
}

async function post<T>(app: FastifyInstance, path: string, body: unknown): Promise<{ status: number; body: { code: number; error?: { code: number; msg: string }; data: T } }> {
  const response = await app.inject({ method: 'POST', url: path, payload: body as Record<string, unknown> });
  return { status: response.statusCode, body: response.json() };
}

describe('the bench anchors', () => {
  let database: Database;
  let anchored: FastifyInstance;
  let server: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase();
    anchored = await buildAnchoredApp({ config: loadConfig({}), db: database.db, serveClient: false });
    server = await createTestApp(database);
  });

  afterAll(async () => {
    await anchored?.close();
    await server?.close();
    await database?.close();
  });

  it("are not the server's: 404 with the envelope", async () => {
    for (const path of Object.values(BENCH_ANCHOR_PATHS)) {
      const answer = await post(server.app, path, {});
      expect(answer.status, path).toBe(404);
      expect(answer.body.code, path).toBe(-1);
      expect(answer.body.error?.code, path).toBe(ErrorCode.NotFound);
      expect(answer.body.error?.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('answer the constant with the success envelope', async () => {
    const answer = await post<AnchorPage>(anchored, BENCH_ANCHOR_PATHS.constant, {});
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(0);
    expect(answer.body.data.list).toHaveLength(1);
  });

  it('page the live posts by keyset, newest first, as the feed pages them', async () => {
    const first = await post<AnchorPage>(anchored, BENCH_ANCHOR_PATHS.rawKeyset, { size: 20 });
    expect(first.body.code).toBe(0);
    const ids = first.body.data.list.map((row) => Number(row.id));
    expect(ids).toHaveLength(20);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(first.body.data.page).toEqual({ more: true, next_index: ids.at(-1) });

    // The same posts, in the same order, as the real feed's first pages (tab all, logged out).
    const feed = await server.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 });
    expect(feed.data().list.map((item) => item.id)).toEqual(ids);

    const second = await post<AnchorPage>(anchored, BENCH_ANCHOR_PATHS.rawKeyset, { size: 20, index: first.body.data.page.next_index });
    const next = second.body.data.list.map((row) => Number(row.id));
    expect(next).toHaveLength(20);
    expect(Math.max(...next)).toBeLessThan(Math.min(...ids));
    const feedNext = await server.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20, index: feed.data().page.next_index });
    expect(feedNext.data().list.map((item) => item.id)).toEqual(next);
  });

  it("read a channel's, a topic's and the followed channels' page as those feeds read it", async () => {
    const demo = await server.login(DEMO_USER_CELLPHONE);
    const ids = async (path: string, body: Record<string, unknown>) => {
      const answer = await post<AnchorPage>(anchored, path, { size: 5, ...body });
      expect(answer.body.code, path).toBe(0);
      return answer.body.data.list.map((row) => Number(row.id));
    };
    const feed = async (endpoint: Endpoint, body: Record<string, unknown>) =>
      (await server.call<Paged<Post>>(endpoint, { size: 5, ...body }, { ticket: demo.ticket })).data().list.map((item) => item.id);
    const [topic] = await queryRows<{ id: number }>(database.db, sql`select topic_id as id from post_topics group by topic_id order by count(*) desc limit 1`);
    const channel = await feed(api.channelPosts, { channel_id: 1 });
    expect(channel).toHaveLength(5);
    expect(await ids(BENCH_ANCHOR_PATHS.rawChannel, { of: 1 })).toEqual(channel);
    expect(await ids(BENCH_ANCHOR_PATHS.rawChannel, { of: 1, index: channel[2] })).toEqual(await feed(api.channelPosts, { channel_id: 1, index: channel[2] }));
    expect(await ids(BENCH_ANCHOR_PATHS.rawTopic, { of: topic!.id })).toEqual(await feed(api.topicPosts, { topic_id: topic!.id }));
    const followed = await feed(api.channelPosts, { tab: 'follow' });
    expect(followed).toHaveLength(5);
    expect(await ids(BENCH_ANCHOR_PATHS.rawFollow, { of: demo.uid })).toEqual(followed);
    expect(await ids(BENCH_ANCHOR_PATHS.rawFollow, { of: demo.uid, index: followed[3] })).toEqual(await feed(api.channelPosts, { tab: 'follow', index: followed[3] }));
  });

  it('find the posts search/ finds, by its own statement, in its order', async () => {
    const raw = await post<{ list: { id: number | string }[]; page: { more: boolean } }>(anchored, BENCH_ANCHOR_PATHS.rawSearch, { q: '分布式', size: 50 });
    expect(raw.body.code).toBe(0);
    const ids = raw.body.data.list.map((row) => Number(row.id));
    expect(ids.length).toBeGreaterThan(0);
    const found = (await server.call<Paged<SearchHit>>(api.search, { q: '分布式', size: 50 })).data();
    expect(found.list.map((hit) => (hit.type === 'post' ? hit.post.id : 0))).toEqual(ids);
    expect((await post<{ list: unknown[] }>(anchored, BENCH_ANCHOR_PATHS.rawSearch, { q: '%' })).body.data.list).toEqual([]);
  });

  it("send the cards of tab all's and search/'s page as the app writes them, without the names it adds", async () => {
    // The card anchors' posts are the app's, field for field, but the author, channels and topics.
    const withoutNames = ({ user: _user, channels: _channels, topics: _topics, ...card }: Post) => card;
    const cards = async (path: string, body: Record<string, unknown>) => {
      const answer = await post<{ list: Post[]; page: { more: boolean } }>(anchored, path, body);
      expect(answer.body.code, path).toBe(0);
      return answer.body.data;
    };
    const feed = (await server.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 })).data();
    const tabAll = await cards(BENCH_ANCHOR_PATHS.cardKeyset, { size: 20 });
    expect(tabAll.list).toHaveLength(20);
    expect(tabAll.list).toEqual(feed.list.map(withoutNames));
    expect(tabAll.page.more).toBe(true);
    const next = (await server.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20, index: feed.page.next_index })).data();
    expect((await cards(BENCH_ANCHOR_PATHS.cardKeyset, { size: 20, index: feed.page.next_index })).list).toEqual(next.list.map(withoutNames));

    const found = (await server.call<Paged<SearchHit>>(api.search, { q: '分布式', size: 50 })).data();
    const searched = await cards(BENCH_ANCHOR_PATHS.cardSearch, { q: '分布式', size: 50 });
    expect(searched.list.length).toBeGreaterThan(0);
    expect(searched.list).toEqual(found.list.map((hit) => (hit.type === 'post' ? withoutNames(hit.post) : null)));
    expect((await cards(BENCH_ANCHOR_PATHS.cardSearch, { q: '%' })).list).toEqual([]);
  });

  it('write a like and take it back, a comment and a post, each with the counter that counts it', async () => {
    const counts = async () =>
      (
        await queryRows<{ likes: number; comments: number; posts: number; channel: number; author: number }>(
          database.db,
          sql`select (select like_count from posts where id = 1) as likes, (select comment_count from posts where id = 1) as comments,
            (select count(*)::int from posts) as posts, (select post_count from channels where id = 1) as channel,
            (select post_count from users where id = 2) as author`,
        )
      )[0]!;
    const [liker] = await queryRows<{ id: number }>(
      database.db,
      sql`select id from users where id not in (select user_id from likes where target_type = 'post' and target_id = 1) order by id limit 1`,
    );
    const before = await counts();
    expect((await post(anchored, BENCH_ANCHOR_PATHS.rawLikeAdd, { post_id: 1, user_id: liker!.id })).body.code).toBe(0);
    expect((await counts()).likes).toBe(before.likes + 1);
    expect((await post(anchored, BENCH_ANCHOR_PATHS.rawLikeCancel, { post_id: 1, user_id: liker!.id })).body.code).toBe(0);
    expect((await post(anchored, BENCH_ANCHOR_PATHS.rawCommentAdd, { post_id: 1, user_id: 2, content: "它's 好" })).body.code).toBe(0);
    expect((await post(anchored, BENCH_ANCHOR_PATHS.rawPostAdd, { channel_id: 1, user_id: 2, content: '锚' })).body.code).toBe(0);
    const after = await counts();
    expect(after).toEqual({ ...before, comments: before.comments + 1, posts: before.posts + 1, channel: before.channel + 1, author: before.author + 1 });
  });
});

interface Counts {
  posts: number;
  comments: number;
  likes: number;
  votes: number;
  vote_records: number;
  users: number;
}

describe('the bulk loader and the load generator', () => {
  const posts = 1_000;
  let database: Database;
  let t: TestApp;
  let loaded: BulkLoadSummary;
  let before: Counts;

  beforeAll(async () => {
    database = await openTestDatabase();
    const runner = sqlRunnerOf(database);
    before = await counts(runner);
    loaded = await bulkLoad(runner, { posts });
    t = await createTestApp(database, { env: { REQUEST_LIMIT_PER_ADDRESS: '1000000000' } });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  async function counts(runner: SqlRunner): Promise<Counts> {
    const { rows } = await runner.query(`select
      (select count(*) from posts)::int as posts, (select count(*) from comments)::int as comments,
      (select count(*) from likes)::int as likes, (select count(*) from votes)::int as votes,
      (select count(*) from vote_records)::int as vote_records, (select count(*) from users)::int as users`);
    return rows[0] as Counts;
  }

  it('adds what its summary says, with comments, likes and polls, every counter and copy consistent', async () => {
    const after = await counts(sqlRunnerOf(database));
    expect(loaded.posts).toBe(posts);
    expect(after.posts - before.posts).toBe(loaded.posts);
    expect(after.comments - before.comments).toBe(loaded.comments);
    expect(after.likes - before.likes).toBe(loaded.likes);
    expect(after.votes - before.votes).toBe(loaded.votes);
    expect(after.vote_records - before.vote_records).toBe(loaded.voteRecords);
    expect(after.users - before.users).toBe(loaded.users);
    for (const part of [loaded.comments, loaded.likes, loaded.votes, loaded.voteRecords]) expect(part).toBeGreaterThan(0);
    expect(loaded.lastPostId - loaded.firstPostId + 1).toBeGreaterThanOrEqual(posts);

    const mismatches = await counterMismatches(database.db);
    expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
  });

  it('leaves posts search/ finds: by their code title, newest first', async () => {
    const page = (await t.call<Paged<SearchHit>>(api.search, { q: '快速排序', size: 5 })).data();
    expect(page.list.length).toBeGreaterThan(0);
    for (const hit of page.list) expect(hit.type === 'post' && hit.post.id).toBeGreaterThanOrEqual(loaded.firstPostId);
  });

  it('leaves posts the feed reads: the newest page is the loaded posts', async () => {
    const page = await t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 20 });
    for (const item of page.data().list) {
      expect(item.id).toBeGreaterThanOrEqual(loaded.firstPostId);
      expect(item.id).toBeLessThanOrEqual(loaded.lastPostId);
    }
  });

  it('load.ts drives a listening server from its own process and reports the requests it made', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const spec: LoadSpec = {
      url: `${address}${api.postDetail.path}`,
      body: {},
      random: { post_id: [loaded.firstPostId, loaded.lastPostId] },
      connections: 2,
      seconds: 1,
    };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(projectRoot(), 'tests/bench/load.ts'), JSON.stringify(spec)], {
      cwd: projectRoot(),
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
    expect(result.requests).toBeGreaterThan(0);
    expect(result.non2xx + result.errors + result.timeouts).toBe(0);
    expect(result.rps).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
  }, 30_000);

  it('live-streams.ts holds its streams from its own process and tells when the timed one has a post', async () => {
    await t.app.live.listenTo(database);
    const address = t.app.server.listening ? `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
    const holder = spawn(process.execPath, ['--import', 'tsx', join(projectRoot(), 'tests/bench/live-streams.ts'), address, '5', '3'], {
      cwd: projectRoot(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines: Record<string, number>[] = [];
      let out = '';
      holder.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const complete = out.split('\n');
        out = complete.pop()!;
        for (const line of complete) lines.push(JSON.parse(line) as Record<string, number>);
      });
      await vi.waitFor(() => expect(lines[0]?.open).toBe(5), { timeout: 30_000 });
      expect(t.app.live.streamCount).toBe(5);
      const { ticket } = await t.login('15700420001');
      const post = (await t.call<{ id: number }>(api.postAdd, { content: '实时推送的一条', channel_id: [1], client_id: newClientId('bench') }, { ticket })).data();
      await vi.waitFor(() => expect(lines.some((line) => line.post_id === post.id)).toBe(true), { timeout: 30_000 });
    } finally {
      holder.kill();
    }
  }, 60_000);
});

describe('load.ts with bodies in turn, fresh fields and a rate', () => {
  it('sends each body in turn with a fresh client_id, held to the rate, its spec read from a file', async () => {
    const bodies: Record<string, unknown>[] = [];
    const echo = Fastify();
    echo.post('/echo', async (request) => {
      bodies.push(request.body as Record<string, unknown>);
      return { code: 0, data: {} };
    });
    const address = await echo.listen({ port: 0, host: '127.0.0.1' });
    const dir = await mkdtemp(join(tmpdir(), 'load-spec-'));
    try {
      const spec: LoadSpec = {
        url: `${address}/echo`,
        body: { channel_id: [1] },
        bodies: [{ content: '甲' }, { content: '乙' }],
        unique: ['client_id'],
        rate: 20,
        connections: 2,
        seconds: 1,
      };
      await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(projectRoot(), 'tests/bench/load.ts'), `@${join(dir, 'spec.json')}`], { cwd: projectRoot() });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
      expect(result.requests).toBeGreaterThan(0);
      expect(bodies.length).toBeGreaterThanOrEqual(result.requests);
      expect(new Set(bodies.map((body) => body.content))).toEqual(new Set(['甲', '乙']));
      expect(bodies.every((body) => Array.isArray(body.channel_id))).toBe(true);
      expect(new Set(bodies.map((body) => body.client_id)).size).toBe(bodies.length);
      // Held to about 20 a second (unheld, a local server answers thousands).
      expect(bodies.length).toBeLessThan(200);
    } finally {
      await echo.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('sends raw bodies as they are, in turn (the stall group\'s nested bodies)', async () => {
    const texts: string[] = [];
    const echo = Fastify();
    echo.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    echo.post('/echo', async (request) => {
      texts.push(request.body as string);
      return { code: 0, data: {} };
    });
    const address = await echo.listen({ port: 0, host: '127.0.0.1' });
    try {
      const spec: LoadSpec = { url: `${address}/echo`, body: {}, rawBodies: ['[[[]]]', '{"a":{"a":1}}'], rate: 20, connections: 2, seconds: 1 };
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(projectRoot(), 'tests/bench/load.ts'), JSON.stringify(spec)], { cwd: projectRoot() });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
      expect(result.requests).toBeGreaterThan(0);
      expect(new Set(texts)).toEqual(new Set(['[[[]]]', '{"a":{"a":1}}']));
    } finally {
      await echo.close();
    }
  }, 30_000);
});
