/**
 * Prepared statements (src/server/db/prepared.ts) take whole numbers, arrays of them, null and
 * lowercase hex digests (a ticket's sha256), on PGlite (where values are written into EXECUTE as
 * literals) and on PostgreSQL (bound) alike; any other text is refused before anything is sent,
 * so nothing that could hold a quote is ever spliced into SQL. On PostgreSQL, the writes' statements
 * are prepared and keep their generic plan: none is parsed or planned again for each write.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Post } from '../../src/shared/schemas.ts';
import { boundText, hexDigest, preparedStatement, queryPrepared } from '../../src/server/db/prepared.ts';
import { inTransaction } from '../../src/server/db/transaction.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { behaviourDatabases, codeOf, testAppFor, testDatabases } from '../support/api.ts';
import { queryRows } from '../support/db.ts';

const ECHO_TEXT = preparedStatement('prepared_test_echo_text', ['text', 'int'], 'select $1::text as text, $2::int as n');

const ECHO = preparedStatement('prepared_test_echo', ['text', 'int', 'int[]'], 'select $1::text as digest, $2::int as n, $3::int[] as ns');

describe.each(testDatabases)('prepared statements on $name', ({ open }) => {
  const app = testAppFor(open);

  it('take a hex digest as a text value, prepared and inside a transaction alike', async () => {
    const digest = hashToken('a ticket');
    const expected = { digest, n: 7, ns: [1, 2] };
    expect(await queryPrepared(app.database.db, ECHO, [hexDigest(digest), 7, [1, 2]])).toEqual([expected]);
    expect(await queryPrepared(app.database.db, ECHO, [hexDigest(digest), 7, [1, 2]])).toEqual([expected]);
    const inTransaction = await app.database.db.transaction((tx) => queryPrepared(tx, ECHO, [hexDigest(digest), 7, [1, 2]]));
    expect(inTransaction).toEqual([expected]);
  });

  it('take any text as a bound text, never spliced: at the top, in a write transaction and in drizzle\'s', async () => {
    const hostile = "x'); drop table posts; -- 评论";
    const expected = [{ text: hostile, n: 3 }];
    expect(await queryPrepared(app.database.db, ECHO_TEXT, [boundText(hostile), 3])).toEqual(expected);
    expect(await inTransaction(app.database.db, (tx) => queryPrepared(tx, ECHO_TEXT, [boundText(hostile), 3]))).toEqual(expected);
    expect(await app.database.db.transaction((tx) => queryPrepared(tx, ECHO_TEXT, [boundText(hostile), 3]))).toEqual(expected);
  });

  it('run a write transaction on one connection: committed when the work resolves, rolled back when it throws', async () => {
    const db = app.database.db;
    const key = `prepared-test-${Math.random()}`;
    const count = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from rate_limits where key = ${key}`))[0]!.n;
    const insert = (tx: typeof db) => tx.execute(sql`insert into rate_limits (key, window_start, count) values (${key}, now(), 1)`);
    const refused = inTransaction(db, async (tx) => {
      await insert(tx);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await count()).toBe(0);
    await inTransaction(db, (tx) => insert(tx));
    expect(await count()).toBe(1);
  });

  it('refuse any other text before sending anything, and leave the database as it was', async () => {
    const hostile = "x'); drop table posts; --";
    expect(() => hexDigest(hostile)).toThrow('not a lowercase hex digest');
    for (const value of [hostile, 'ABCDEF', '', "a'"]) {
      // Cast past hexDigest, as a careless caller could.
      await expect(queryPrepared(app.database.db, ECHO, [value as ReturnType<typeof hexDigest>, 1, []])).rejects.toThrow(
        'not a lowercase hex digest',
      );
    }
    const [posts] = await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from posts`);
    expect(posts!.n).toBeGreaterThan(0);
  });
});

// A write's statements are prepared on its connection on PostgreSQL alone (PGlite runs them unprepared inside drizzle's transaction).
describe.each(behaviourDatabases)('prepared statements on $name', ({ open }) => {
  // Every statement the driver sends while `recording`. Installed before the app's pool opens a
  // connection: a pool's connection binds the driver's query when it connects (db/client.ts).
  let recording = false;
  const sent: { prepared: boolean; text: string }[] = [];
  const driverQuery = pg.Client.prototype.query;
  beforeAll(() => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { name?: string; text: string };
      const text = (typeof config === 'string' ? config : config.text).replace(/\s+/g, ' ').trim();
      if (recording && !/^(begin|commit|rollback)$/i.test(text)) sent.push({ prepared: typeof config !== 'string' && config.name !== undefined, text });
      return (driverQuery as (...args: unknown[]) => unknown).apply(this, args);
    } as typeof driverQuery;
  });
  afterAll(() => {
    pg.Client.prototype.query = driverQuery;
  });
  const app = testAppFor(open);

  /** Each statement prepared on each of the pool's connections: its plans of each kind. */
  async function plansOfPrepared(): Promise<{ name: string; generic: number; custom: number }[]> {
    const client = (app.database.db as unknown as { $client: pg.Pool }).$client;
    expect(client).toBeInstanceOf(pg.Pool);
    // Every connection the pool holds: none is lent now, so taking as many as it has takes each one.
    const connections = await Promise.all(Array.from({ length: client.totalCount }, () => client.connect()));
    try {
      const read = (connection: pg.PoolClient) =>
        connection.query<{ name: string; generic: number; custom: number }>(
          'select name, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements',
        );
      return (await Promise.all(connections.map(read))).flatMap((result) => result.rows);
    } finally {
      for (const connection of connections) connection.release();
    }
  }

  it('keep the generic plan of every statement a post of text sends, once the planner has tried its own (not planned per post)', async () => {
    const { ticket } = await app.t.login('13800000000');
    // One after another, so that the pool lends the same connection again: each statement runs on it more than the planner's first five tries.
    for (let i = 0; i < 8; i++) {
      const answer = await app.t.call(api.postAdd, { content: `计划缓存 ${i}`, channel_id: [1], topic_tags: '#计划缓存#', client_id: `prepared-plans-${Math.random()}` }, { ticket });
      expect(codeOf(answer)).toBeUndefined();
    }
    const plans = await plansOfPrepared();
    expect(plans.filter((statement) => statement.custom > 5 && statement.generic === 0)).toEqual([]);
    expect(plans.some((statement) => statement.name === 'post_add_1_1' && statement.generic > 0)).toBe(true);
  });

  it('prepare every statement a like, a comment and the push lookup of their notices send (none parsed and planned per write)', async () => {
    const author = await app.t.login('13800000000');
    const reader = await app.t.login('13900000031');
    const post = (await app.t.call<Post>(api.postAdd, { content: '准备好的语句', channel_id: [1], client_id: `prepared-post-${Math.random()}` }, { ticket: author.ticket })).data();
    const writes = [
      () => app.t.call(api.likeAdd, { post_id: post.id, client_id: `prepared-like-${Math.random()}` }, { ticket: reader.ticket }),
      () => app.t.call(api.commentAdd, { post_id: post.id, content: '准备好了', client_id: `prepared-comment-${Math.random()}` }, { ticket: reader.ticket }),
      () => app.t.call(api.likeCancel, { post_id: post.id, client_id: `prepared-cancel-${Math.random()}` }, { ticket: reader.ticket }),
    ];
    // The notices' live events, as a server hears them: the push sender looks up each notice's subscriptions.
    const server = app.t.app as unknown as {
      live: { listenTo(database: typeof app.database): Promise<void>; onEvent(hearer: (event: unknown) => void): void };
      push: { settled(): Promise<void> };
    };
    await server.live.listenTo(app.database);
    // What was heard, for a wait that ends without a lookup: whether the notices' events came at all.
    const heard: string[] = [];
    server.live.onEvent((event) => heard.push(JSON.stringify(event)));
    recording = true;
    try {
      for (const write of writes) expect(codeOf(await write())).toBeUndefined();
      // The notices heard, and a push looked up (a burst of them is one push).
      await vi.waitFor(
        () =>
          expect(
            sent.filter((statement) => statement.text.includes('push_subscriptions')).length,
            `no push lookup; live events heard: ${heard.join(' ') || 'none'}; statements sent: ${sent.map((statement) => statement.text.slice(0, 40)).join(' | ')}`,
          ).toBeGreaterThan(0),
        { timeout: 10_000 },
      );
      await server.push.settled();
    } finally {
      recording = false;
    }
    expect(sent.some((statement) => statement.text.includes('into likes')), 'the like\'s statement was seen').toBe(true);
    const unprepared = sent.filter((statement) => !statement.prepared).map((statement) => statement.text.slice(0, 120));
    expect(unprepared).toEqual([]);
  });
});
