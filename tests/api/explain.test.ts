/**
 * The reads of the feed use their indexes at scale. A database is bulk-loaded with tens of
 * thousands of posts (tests/bench/bulk-load.ts: comments, likes, polls and votes alike), then
 * every statement the app sends for channel/posts (each tab and a channel, first and later
 * pages), topic/posts, user/posts, post/detail, comment/list (also page 1 of 5,000 top-level
 * comments) and likes/list, logged out and in,
 * and notice/list (each tab) and notice/unread_count of a user with 200,000 notices,
 * is run with EXPLAIN ANALYZE as PostgreSQL plans it for the values sent and, for a prepared
 * statement, as a generic plan too (what it may run from its sixth call on). A sequential scan
 * of a table that grows with the content, one of its indexes read whole, or a node that looked at
 * far more of its rows than a page holds fails the test, with the statement and its plan; so does
 * a sort of a poll's options (an index gives them in order), and an index read twice with the
 * same condition.
 *
 * How long the reads take is a figure of `npm run bench`, never asserted here.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Comment, Paged, Post, UserBrief } from '../../src/shared/schemas.ts';
import type { Database } from '../../src/server/db/client.ts';
import { bulkLoad, type BulkLoadSummary, type SqlRunner } from '../bench/bulk-load.ts';
import { createTestApp, type TestApp } from '../support/api.ts';
import { openPostgresTestDatabase, recordStatements, type SentStatement } from '../support/db.ts';

/** Tables that grow with the content: never read whole by a read of the feed. */
const GROWING = new Set([
  'posts',
  'comments',
  'likes',
  'vote_records',
  'votes',
  'vote_options',
  'post_channels',
  'post_topics',
  'post_images',
  'code_snippets',
  'users',
  'user_follows',
  'notices',
  'notice_actors',
]);

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
}

/** The plan as EXPLAIN prints it, shortly: one line per node. */
function planText(plan: PlanNode, depth = 0): string {
  const parts = [
    node(plan),
    plan['Relation Name'] && `on ${plan['Relation Name']}`,
    plan['Index Name'] && `using ${plan['Index Name']}`,
    plan['Index Cond'] && `cond ${plan['Index Cond']}`,
    plan.Filter && `filter ${plan.Filter}`,
  ];
  const line = `${'  '.repeat(depth)}${parts.filter(Boolean).join(' ')}`;
  return [line, ...(plan.Plans ?? []).map((child) => planText(child, depth + 1))].join('\n');
}
const node = (plan: PlanNode) => (plan['Subplan Name'] ? `${plan['Subplan Name']}: ${plan['Node Type']}` : plan['Node Type']);

/**
 * Rows of one table a read of one page may look at, in one node of its plan: a page is 21 rows,
 * each with a few parts; the follow tab merges 21 rows of each followed channel.
 */
const ROWS_PER_NODE = 500;

/**
 * The plan's nodes that read a growing table whole (a sequential scan, an index scan with no
 * condition) or, run with ANALYZE, looked at more than ROWS_PER_NODE of its rows.
 */
function wholeTableReads(plan: PlanNode): string[] {
  const found: string[] = [];
  const visit = (node: PlanNode) => {
    const relation = node['Relation Name'];
    if (relation && GROWING.has(relation)) {
      if (node['Node Type'] === 'Seq Scan') found.push(`Seq Scan on ${relation}`);
      if (/^Index (Only )?Scan$/.test(node['Node Type']) && !node['Index Cond']) found.push(`${node['Node Type']} of all ${node['Index Name']}`);
      const looked =
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1);
      if (looked > ROWS_PER_NODE) found.push(`${node['Node Type']} on ${relation} looked at ${looked} rows`);
    }
    node.Plans?.forEach(visit);
  };
  visit(plan);
  return found;
}

/** Sort steps over a poll's options: the index gives them in order (vote_id, sort, id). */
function sortedOptions(plan: PlanNode): string[] {
  const found: string[] = [];
  const visit = (node: PlanNode) => {
    if (/Sort$/.test(node['Node Type']) && node.Plans?.some((child) => child['Relation Name'] === 'vote_options')) {
      found.push(`${node['Node Type']} of vote_options`);
    }
    node.Plans?.forEach(visit);
  };
  visit(plan);
  return found;
}

/**
 * Index reads run twice with the same condition in one statement: what one read gives, read
 * again (the planner copies a subquery used twice into each use unless told not to).
 */
function repeatedReads(plan: PlanNode): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (node: PlanNode) => {
    if (node['Index Name'] && node['Index Cond'] && (node['Actual Loops'] ?? 0) > 0) {
      const key = `${node['Index Name']} where ${node['Index Cond']}`;
      if (seen.has(key)) found.push(`${key} read twice`);
      seen.add(key);
    }
    node.Plans?.forEach(visit);
  };
  visit(plan);
  return found;
}

/** SQL literal of a value the app binds (numbers, text, arrays of numbers, booleans, null, dates). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return literal(value.toISOString());
  if (Array.isArray(value)) return literal(`{${value.map((item) => String(item)).join(',')}}`);
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** What the checks need of an engine: run SQL, and explain a sent statement both ways. */
interface Engine {
  database: Database;
  runner: SqlRunner;
  /** Statements the app sent since the last call. */
  takeSent(): SentStatement[];
  explain(sent: SentStatement, generic: boolean): Promise<PlanNode>;
  stop(): Promise<void>;
}

let generics = 0;

/** EXPLAIN through `query`; the generic plan through PREPARE/EXECUTE under force_generic_plan. */
async function explainWith(query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>, sent: SentStatement, generic: boolean) {
  const planOf = (rows: unknown[]) => {
    const cell = Object.values(rows[0] as Record<string, unknown>)[0];
    return ((typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[])[0]!.Plan;
  };
  // The reads run as they would (EXPLAIN ANALYZE executes them): rows looked at are counted.
  if (!generic) return planOf((await query(`explain (analyze, format json) ${sent.text}`, sent.values)).rows);
  const name = `explain_generic_${++generics}`;
  await query('set plan_cache_mode = force_generic_plan');
  try {
    await query(`prepare ${name} as ${sent.text}`);
    const args = sent.values.length > 0 ? `(${sent.values.map(literal).join(', ')})` : '';
    return planOf((await query(`explain (analyze, format json) execute ${name}${args}`)).rows);
  } finally {
    await query(`deallocate ${name}`).catch(() => undefined);
    await query('reset plan_cache_mode');
  }
}

async function postgresEngine(): Promise<Engine> {
  const opened = await openPostgresTestDatabase();
  const sent = recordStatements(opened.database.db);
  const client = new pg.Client({ connectionString: opened.url });
  await client.connect();
  return {
    database: opened.database,
    runner: client,
    takeSent: () => sent.splice(0),
    explain: (statement, generic) => explainWith((text, values) => client.query(text, values), statement, generic),
    stop: async () => {
      await client.end();
      await opened.database.close();
      await opened.stop();
    },
  };
}

/**
 * A size at which the planner chooses as it does at a million posts (one author per five
 * posts). PGlite runs the same statements with PostgreSQL's own planner; loading it at such a
 * size takes minutes (it runs in one thread of WebAssembly), and at the sizes it loads in
 * seconds a small table read whole is rightly its cheapest plan, so it is not checked here.
 */
const engines = [{ name: 'PostgreSQL', open: postgresEngine, posts: 50_000 }];

describe.each(engines)('the feed reads on $name at scale', ({ open, posts }) => {
  let engine: Engine;
  let t: TestApp;
  let loaded: BulkLoadSummary;

  beforeAll(async () => {
    engine = await open();
    loaded = await bulkLoad(engine.runner, { posts, users: posts / 5 });
    t = await createTestApp(engine.database);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await engine?.stop();
  });

  /** Calls the reads, then explains every statement they sent; answers what read a table whole. */
  async function wholeReadsOf(calls: () => Promise<void>): Promise<string[]> {
    engine.takeSent();
    await calls();
    const sent = engine.takeSent();
    expect(sent.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const statement of sent) {
      for (const generic of statement.prepared ? [false, true] : [false]) {
        const key = `${generic}\u0000${statement.text}\u0000${generic ? '' : JSON.stringify(statement.values)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const plan = await engine.explain(statement, generic);
        for (const found of [...wholeTableReads(plan), ...sortedOptions(plan), ...repeatedReads(plan)]) {
          problems.push(`${found} (${generic ? 'generic plan' : 'custom plan'}) in:\n${statement.text}\n${planText(plan)}`);
        }
      }
    }
    return problems;
  }

  /** A loaded post that has the part (pictures, code, a poll), for the detail. */
  const PARTS = {
    pictures: `attach::jsonb @> '[{"type": "image"}]'`,
    code: `attach::jsonb @> '[{"type": "code"}]'`,
    poll: 'has_vote',
  };
  async function postWith(part: keyof typeof PARTS): Promise<number> {
    const { rows } = await engine.runner.query(`select id from posts where ${PARTS[part]} and id >= ${loaded.firstPostId} order by id desc limit 1`);
    return Number((rows[0] as { id: number | string }).id);
  }

  it('reads every page of posts, a post, its comments and its likers through indexes, logged out', async () => {
    const middle = Math.floor((loaded.firstPostId + loaded.lastPostId) / 2);
    const withComments = Number(
      ((await engine.runner.query(`select post_id from comments where root_id is not null order by id desc limit 1`)).rows[0] as { post_id: string })
        .post_id,
    );
    const problems = await wholeReadsOf(async () => {
      for (const body of [{ tab: 'all' }, { tab: 'all', index: middle }, { tab: 'good' }, { tab: 'good', index: middle }, { channel_id: 2 }, { channel_id: 2, index: middle }]) {
        const page = (await t.call<Paged<Post>>(api.channelPosts, body)).data();
        expect(page.list.length).toBeGreaterThan(0);
      }
      expect((await t.call<Paged<Post>>(api.topicPosts, { topic_id: 1 })).data().list.length).toBeGreaterThan(0);
      expect((await t.call<Paged<Post>>(api.userPosts, { visit_user_id: loaded.firstUserId })).data().list.length).toBeGreaterThan(0);
      for (const part of ['pictures', 'code', 'poll'] as const) {
        expect((await t.call<Post>(api.postDetail, { post_id: await postWith(part) })).data().id).toBeGreaterThan(0);
      }
      const comments = (await t.call<Paged<Comment>>(api.commentList, { post_id: withComments, size: 1 })).data();
      expect(comments.list[0]?.replies.length).toBeGreaterThan(0);
      await t.call(api.commentList, { post_id: withComments, index: comments.page.next_index });
      const likers = (await t.call<Paged<UserBrief>>(api.likeList, { post_id: middle, size: 1 })).data();
      expect(likers.list.length).toBe(1);
      await t.call(api.likeList, { post_id: middle, index: likers.page.next_index });
    });
    expect(problems).toEqual([]);
  });

  it('reads them through indexes logged in too (follows, likes and votes of the viewer, the follow tab, the ticket check)', async () => {
    const { ticket } = await t.login('13800000000');
    const voted = Number(
      ((await engine.runner.query(`select v.post_id from vote_records r join votes v on v.id = r.vote_id order by r.vote_id desc limit 1`)).rows[0] as {
        post_id: string;
      }).post_id,
    );
    const problems = await wholeReadsOf(async () => {
      // Each twice: first with the ticket looked up, then remembered and checked by the page's statement.
      for (const body of [{ tab: 'all' }, { tab: 'all' }, { tab: 'follow' }, { tab: 'follow', index: loaded.lastPostId - 100 }, { channel_id: 2 }, { channel_id: 2 }]) {
        expect((await t.call<Paged<Post>>(api.channelPosts, body, { ticket })).data().list.length).toBeGreaterThan(0);
      }
      for (let i = 0; i < 2; i++) expect((await t.call<Paged<Post>>(api.topicPosts, { topic_id: 1 }, { ticket })).data().list.length).toBeGreaterThan(0);
      expect((await t.call<Post>(api.postDetail, { post_id: voted }, { ticket })).data().vote).not.toBeNull();
      await t.call(api.commentList, { post_id: voted }, { ticket });
      await t.call(api.likeList, { post_id: voted }, { ticket });
    });
    expect(problems).toEqual([]);
  });

  it('reads a page of notices of a user with 200,000 of them, each tab, and the unread count, through indexes', async () => {
    const me = await t.login('13800000099');
    const users = loaded.posts / 5;
    // The user's notices among as many of others, one actor each: a quarter unread, follows rare
    // (one in a hundred), so a tab read without its index would walk thousands of rows.
    await engine.runner.query(`insert into notices (user_id, type, tab, post_id, comment_id, day, unread)
      select case when g % 8 < 4 then ${me.uid} else ${loaded.firstUserId} + g % ${users} end, k.type,
        case k.type when 'reply' then 'comment' else k.type end,
        case k.type when 'follow' then 0 else ${loaded.firstPostId} + g % ${loaded.posts} end, 0, g, g % 4 = 0
      from generate_series(1, 400000) g
      cross join lateral (select case when g / 8 % 100 < 40 then 'comment' when g / 8 % 100 < 60 then 'reply'
        when g / 8 % 100 < 99 then 'like' else 'follow' end as type) k`);
    await engine.runner.query(`insert into notice_actors (notice_id, actor_id, seq)
      select id, ${loaded.firstUserId} + id % ${users}, seq from notices`);
    await engine.runner.query(`update users set notice_unread = (select count(*) from notices where user_id = ${me.uid} and unread) where id = ${me.uid}`);
    await engine.runner.query('analyze notices; analyze notice_actors');
    const problems = await wholeReadsOf(async () => {
      for (const type of ['all', 'comment', 'like', 'follow'] as const) {
        const page = (await t.call<Paged<{ id: number }>>(api.noticeList, { type }, { ticket: me.ticket })).data();
        expect(page.list.length).toBeGreaterThan(0);
        await t.call(api.noticeList, { type, index: page.page.next_index }, { ticket: me.ticket });
      }
      expect((await t.call<{ count: number }>(api.noticeUnreadCount, {}, { ticket: me.ticket })).data().count).toBe(50_000);
    });
    expect(problems).toEqual([]);
  });

  it('reads the first page of the comments of a post with 5,000 top-level ones as it reads a few, logged out and in', async () => {
    const { ticket } = await t.login('13800000098');
    const post = loaded.firstPostId + 7;
    const users = loaded.posts / 5;
    // Every tenth with a reply, every fiftieth deleted: the page's filter has rows to pass over.
    await engine.runner.query(`insert into comments (post_id, user_id, content, deleted_at)
      select ${post}, ${loaded.firstUserId} + g % ${users}, '第 ' || g || ' 条评论', case when g % 50 = 0 then now() end
      from generate_series(1, 5000) g`);
    await engine.runner.query(`insert into comments (post_id, user_id, root_id, reply_user_id, content)
      select post_id, user_id, id, user_id, '回复' from comments where post_id = ${post} and root_id is null and id % 10 = 0`);
    await engine.runner.query('analyze comments');
    const problems = await wholeReadsOf(async () => {
      const first = (await t.call<Paged<Comment>>(api.commentList, { post_id: post })).data();
      expect(first.page.more).toBe(true);
      await t.call(api.commentList, { post_id: post }, { ticket });
    });
    expect(problems).toEqual([]);
  });
});
