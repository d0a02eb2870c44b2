/**
 * The round trips a logged-in read makes to PostgreSQL once the process knows the reader's ticket
 * (http/auth.ts), the page's authors (services/authors.ts) and its channels' and topics' names
 * (services/reference-names.ts) and what the reader liked, follows and chose (services/viewer-marks.ts):
 * each feed page, a detail and search's page of posts is one statement, the ticket's check and
 * the version of the reader's marks inside it (services/posts.ts);
 * so is a page of notices, its previews stored with each notice (services/notices.ts). A like, an
 * unlike and a comment are one round trip each, BEGIN and COMMIT included, and a post of text
 * two (the post with its key, checks and counts, and the read of its answer; the stored answer
 * with the COMMIT),
 * counted as the writes the database's socket takes.
 * Counted at the pool, every statement a call sends but those sent on timers of their own: the
 * request counter's hits to the shared window (services/limits/request-counter.ts) and the
 * deletion of expired keys (services/once.ts, clearExpiredEvery).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Paged, Post } from '../../src/shared/schemas.ts';
import type { Endpoint } from '../../src/shared/api.ts';
import { behaviourDatabases, codeOf, testAppFor } from '../support/api.ts';
import { CLEANUP_STATEMENT } from '../../src/server/services/once.ts';

/** The statements sent on their own timers: the request counter's shared window, and the housekeeping's. */
const TIMED_STATEMENTS = new Set(['rate_window_hit', CLEANUP_STATEMENT]);

describe.each(behaviourDatabases)('round trips of the logged-in reads on $name', ({ open }) => {
  const app = testAppFor(open);

  /** The statements `call` sends through the pool: each one's name (or first words) and text. */
  async function sentBy(call: () => Promise<unknown>): Promise<{ name: string; text: string }[]> {
    const pool = (app.database.db as unknown as { $client: pg.Pool }).$client;
    expect(pool).toBeInstanceOf(pg.Pool);
    const sent: { name: string; text: string }[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((...args: unknown[]) => {
      const config = args[0] as string | { name?: string; text: string };
      const text = typeof config === 'string' ? config : config.text;
      const name = typeof config === 'string' ? config.slice(0, 40) : (config.name ?? config.text.slice(0, 40));
      if (!TIMED_STATEMENTS.has(name)) sent.push({ name, text });
      return query(...args);
    }) as typeof pool.query;
    try {
      await call();
    } finally {
      pool.query = query as typeof pool.query;
    }
    return sent;
  }
  const statementsOf = async (call: () => Promise<unknown>) => (await sentBy(call)).map((statement) => statement.name);

  it('reads each feed page, a detail and a search page of posts in one statement', async () => {
    // The demo reader: they follow channels, so the follow tab has posts (an empty page asks after the ticket as well).
    const { ticket } = await app.t.login('13800000000');
    const newest = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 5 }, { ticket })).data().list[0]!;
    const reads: [string, Endpoint, object][] = [
      ['tab all', api.channelPosts, { tab: 'all', size: 5 }],
      ['tab follow', api.channelPosts, { tab: 'follow', size: 5 }],
      ['one channel', api.channelPosts, { channel_id: newest.channels[0]!.channel_id, size: 5 }],
      ['a topic', api.topicPosts, { topic_id: 1, size: 5 }],
      ["an author's posts", api.userPosts, { visit_user_id: newest.user.uid, size: 5 }],
      ['a detail', api.postDetail, { post_id: newest.id }],
      ['search, posts', api.search, { q: '动态', type: 'post', size: 5 }],
    ];
    for (const [name, endpoint, input] of reads) {
      // The first time, the process learns the ticket, the reader's marks, the authors and the names.
      expect(codeOf(await app.t.call(endpoint, input, { ticket }))).toBeUndefined();
      const sent = await statementsOf(async () => expect(codeOf(await app.t.call(endpoint, input, { ticket }))).toBeUndefined());
      expect({ name, statements: sent.length }, sent.join('\n')).toEqual({ name, statements: 1 });
    }
    // The reader's own like and unlike, made through this process, leave their next page one statement, marked as it now is.
    for (const [write, liked] of [[api.likeAdd, true], [api.likeCancel, false]] as const) {
      expect(codeOf(await app.t.call(write, { post_id: newest.id, client_id: `round-trips-marks-${Math.random()}` }, { ticket }))).toBeUndefined();
      let page: Paged<Post> | undefined;
      const sent = await statementsOf(async () => (page = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 5 }, { ticket })).data()));
      expect({ liked, statements: sent.length }, sent.join('\n')).toEqual({ liked, statements: 1 });
      expect(page!.list.find((post) => post.id === newest.id)?.is_like).toBe(liked);
    }
  });

  /**
   * The round trips `call` makes: on each connection the pool lends (a write's), each time it
   * writes to the database after an answer came (or first), and each statement read through the
   * pool, but those sent on their own timers.
   */
  async function tripsOf(call: () => Promise<unknown>): Promise<number> {
    const pool = (app.database.db as unknown as { $client: pg.Pool }).$client;
    let trips = 0;
    const counted = new WeakSet<object>();
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient>;
    // A write takes its connection as a promise; a read's query takes one with a callback, and is counted by its statement.
    const lendForWrite = async () => {
      const client = await connect();
      type Socket = { _write: (...args: unknown[]) => unknown; _writev?: (...args: unknown[]) => unknown; on(event: 'data', listener: () => void): void };
      const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
      if (!counted.has(socket)) {
        counted.add(socket);
        // What is written before the database has answered anything goes in the same trip, however
        // many writes the socket makes of it; a write after an answer starts the next.
        let answered = true;
        socket.on('data', () => (answered = true));
        for (const method of ['_write', '_writev'] as const) {
          const original = socket[method];
          if (original) socket[method] = (...args: unknown[]) => {
            if (measuring && answered) trips++;
            answered = false;
            return original.apply(socket, args);
          };
        }
      }
      return client;
    };
    pool.connect = ((...args: unknown[]) => (typeof args[0] === 'function' ? connect(...args) : lendForWrite())) as typeof pool.connect;
    let measuring = true;
    try {
      const reads = await statementsOf(call);
      return trips + reads.length;
    } finally {
      measuring = false;
      pool.connect = connect as typeof pool.connect;
    }
  }

  it('makes a like, an unlike and a comment in one round trip each, and a post of text in two', async () => {
    const { ticket } = await app.t.login('13800000000');
    const postId = (await app.t.call<Paged<Post>>(api.channelPosts, { tab: 'all', size: 1 }, { ticket })).data().list[0]!.id;
    const key = (what: string) => ({ client_id: `round-trips-${what}-${Math.random()}` });
    const writes: [string, () => Promise<unknown>, number][] = [
      ['likes/add', () => app.t.call(api.likeAdd, { post_id: postId, ...key('add') }, { ticket }), 1],
      ['likes/cancel', () => app.t.call(api.likeCancel, { post_id: postId, ...key('cancel') }, { ticket }), 1],
      ['comment/add', () => app.t.call(api.commentAdd, { post_id: postId, content: `数一数往返 ${Math.random()}`, ...key('comment') }, { ticket }), 1],
      ['post/add', () => app.t.call(api.postAdd, { content: `数一数往返的动态 ${Math.random()}`, channel_id: [1], ...key('post') }, { ticket }), 2],
    ];
    // Each write once first: the process learns the ticket and the writer as an author, the
    // connection its statements. Then each again, counted.
    for (const [name, write] of writes) expect(codeOf((await write()) as Parameters<typeof codeOf>[0]), name).toBeUndefined();
    for (const [name, write, expected] of writes) {
      let answer: unknown;
      const trips = await tripsOf(async () => (answer = await write()));
      expect(codeOf(answer as Parameters<typeof codeOf>[0]), name).toBeUndefined();
      expect({ name, trips }).toEqual({ name, trips: expected });
    }
  });

  it('reads a page of notices in one statement, from the notices and their actors alone', async () => {
    // The demo reader has notices of every kind (the seed's comments, replies, likes and follows).
    const { ticket } = await app.t.login('13800000000');
    for (const type of ['all', 'comment', 'like', 'follow'] as const) {
      const page = await app.t.call<Paged<unknown>>(api.noticeList, { type, size: 5 }, { ticket });
      expect(page.data().list.length, type).toBeGreaterThan(0);
      const sent = await sentBy(async () => expect(codeOf(await app.t.call(api.noticeList, { type, size: 5 }, { ticket }))).toBeUndefined());
      expect(sent.map((statement) => statement.name), type).toHaveLength(1);
      // Its previews are the notice's own (services/notices.ts): no post or comment is read for them.
      expect(sent[0]!.text).not.toMatch(/\b(posts|comments)\b/);
    }
  });
});
