/**
 * The write path without HTTP (the write-floor group of run.ts), in a process of its own so that
 * its CPU is its own: `connections` async loops call the app's write path directly (writer() with
 * the effect as routes/posts.ts calls it, no login lookup), the raw anchor's statement as the
 * anchored server runs it, or that statement with what the two decided guarantees add to it
 * (GUARANTEED_STATEMENTS), on the app's own pool (openDatabase, 10 connections).
 *
 * Spawned by run.ts with a FloorSpec as JSON. It opens the database and warms up, prints
 * `{"ready":true}`, waits for a line on stdin, runs for `seconds`, prints one line of JSON with
 * the figures (FloorResult), then waits for stdin to close before closing its pool: run.ts reads
 * the database's CPU while this process's backends still live.
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { boundText, preparedStatement, queryPrepared, type PreparedStatement, type PreparedValue } from '../../src/server/db/prepared.ts';
import { onWriteConnection } from '../../src/server/db/transaction.ts';
import { addComment } from '../../src/server/services/comments.ts';
import { chinaDay, noticeExcerpt } from '../../src/server/services/notices.ts';
import { writer } from '../../src/server/services/once.ts';
import { setLike } from '../../src/server/services/likes.ts';
import { addPost } from '../../src/server/services/post-add.ts';
import { RAW_WRITE_STATEMENTS } from './server-anchors.ts';

export type FloorCase = 'likes' | 'comment' | 'post';
/** `searchable`: a post's guarantees with its search document (posts alone). */
export type FloorForm = 'service' | 'guarantees' | 'searchable' | 'anchor';

export interface FloorSpec {
  databaseUrl: string;
  case: FloorCase;
  form: FloorForm;
  seconds: number;
  /** Seconds run before the measured run, in the same process (JIT, prepared statements). */
  warmup: number;
  connections: number;
  postIds: [number, number];
  userIds: [number, number];
  channelIds: number[];
  content: string;
}

export interface FloorResult {
  /** Completed calls: a like and its cancel count two, as two requests do in the writes group. */
  ops: number;
  seconds: number;
  opsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time this process used during the measured run, in ms. */
  clientCpuMs: number;
}

/** Stores the write's answer under its client_id, as the exactly-once key does (services/once.ts). */
const storedKey = (endpoint: string, clientId: string, answer: string, from: string) =>
  `stored as (insert into idempotency_keys (user_id, kind, client_id, request_hash, result)
    select $1, '${endpoint}', ${clientId}, '', ${answer} from ${from} returning 1)`;

/**
 * The raw anchors' changes (server-anchors.ts) with what the two decided guarantees add, each one
 * statement and nothing else: the exactly-once key with its stored answer, and the notice in the
 * same transaction (its group made or grown, its actor, the recipient's unread count; taken back
 * on a cancel). No write limit, ticket, suspension, lock of the target or author's count: the
 * least those two guarantees cost in this database, beside which the service's own figure reads.
 */
const GUARANTEED_STATEMENTS = {
  likeAdd: preparedStatement(
    'floor_guaranteed_like_add',
    ['int', 'bigint', 'text', 'int'],
    `with edge as (insert into likes (user_id, target_type, target_id) values ($1, 'post', $2) on conflict do nothing returning target_id),
      counted as (update posts set like_count = like_count + 1 from edge where posts.id = edge.target_id returning posts.user_id, posts.like_count),
      grp as (
        insert into notices (user_id, type, tab, post_id, comment_id, day) select user_id, 'like', 'like', $2, 0, $4 from counted where user_id <> $1
        on conflict (user_id, type, post_id, comment_id, day) where type in ('like', 'follow')
        do update set seq = nextval('notices_seq'), actor_count = notices.actor_count + 1, unread = true, updated_at = now()
        returning id, seq, user_id),
      actor as (insert into notice_actors (notice_id, actor_id, seq) select id, $1, seq from grp on conflict do nothing returning notice_id),
      unread as (update users set notice_unread = notice_unread + 1 from grp where users.id = grp.user_id and exists (select from actor) returning users.id),
      ${storedKey('likeAdd', '$3', "jsonb_build_object('like_count', like_count)", 'counted')}
    select like_count from counted`,
  ),
  likeCancel: preparedStatement(
    'floor_guaranteed_like_cancel',
    ['int', 'bigint', 'text'],
    `with edge as (delete from likes where target_type = 'post' and target_id = $2 and user_id = $1 returning target_id),
      counted as (update posts set like_count = like_count - 1 from edge where posts.id = edge.target_id returning posts.user_id, posts.like_count),
      grp as (
        select n.id, n.actor_count from notices n join notice_actors na on na.notice_id = n.id and na.actor_id = $1
        where n.user_id = (select user_id from counted) and n.type = 'like' and n.post_id = $2 and n.comment_id = 0 for no key update of n),
      removed as (delete from notices where id in (select id from grp where actor_count <= 1) returning unread, user_id),
      left_actor as (delete from notice_actors where notice_id in (select id from grp where actor_count > 1) and actor_id = $1 returning notice_id),
      shrunk as (update notices set actor_count = actor_count - 1 where id in (select notice_id from left_actor) returning id),
      unread as (update users set notice_unread = notice_unread - 1 from removed where users.id = removed.user_id and removed.unread returning users.id),
      ${storedKey('likeCancel', '$3', "jsonb_build_object('like_count', like_count)", 'counted')}
    select like_count from counted`,
  ),
  commentAdd: preparedStatement(
    'floor_guaranteed_comment_add',
    ['int', 'bigint', 'text', 'text'],
    `with added as (insert into comments (post_id, user_id, content) values ($2, $1, $3) returning id, post_id),
      counted as (update posts set comment_count = comment_count + 1 from added where posts.id = added.post_id returning posts.user_id, posts.content),
      made as (
        insert into notices (user_id, type, tab, post_id, comment_id, target_excerpt, content_excerpt)
        select c.user_id, 'comment', 'comment', a.post_id, a.id, ${noticeExcerpt('c.content')}, ${noticeExcerpt('$3')}
        from counted c cross join added a where c.user_id <> $1 returning id, seq, user_id),
      actor as (insert into notice_actors (notice_id, actor_id, seq) select id, $1, seq from made returning notice_id),
      unread as (update users set notice_unread = notice_unread + 1 from made where users.id = made.user_id and exists (select from actor) returning users.id),
      ${storedKey('commentAdd', '$4', "jsonb_build_object('id', id)", 'added')}
    select id from added`,
  ),
  // A post makes no notice: its exactly-once key is what the guarantees add.
  postAdd: guaranteedPostAdd('floor_guaranteed_post_add', 'default'),
};

/**
 * Post $3 of user $1 in channel $2 with its exactly-once key $4, its search document `search`
 * written as the raw anchor writes none, or as post/add writes it (searchable at once).
 */
function guaranteedPostAdd(name: string, search: string): PreparedStatement {
  return preparedStatement(
    name,
    ['int', 'int', 'text', 'text'],
    `with added as (insert into posts (user_id, content, channel_ids, search) values ($1, $3, array[$2::int], ${search}) returning id),
      in_channel as (insert into post_channels (post_id, channel_id) select id, $2 from added),
      channel as (update channels set post_count = post_count + 1 where id = $2),
      ${storedKey('postAdd', '$4', "jsonb_build_object('id', id)", 'added')}
    update users set post_count = post_count + 1 from added where users.id = $1 returning added.id`,
  );
}

/** The guaranteed post with what search/ asks of every post: its search document, made in its insert as post/add makes it. */
const SEARCHABLE_POST_ADD = guaranteedPostAdd('floor_searchable_post_add', `post_search_document($3, '{}', '[]')`);

const spec = JSON.parse(process.argv[2] ?? '') as FloorSpec;
const draw = ([min, max]: [number, number]) => min + Math.floor(Math.random() * (max - min + 1));
const runId = `floor-${process.pid}-${Date.now().toString(36)}`;
let sent = 0;
const freshClientId = () => `${runId}-${++sent}`;

const database = await openDatabase({ databaseUrl: spec.databaseUrl, migrationsFolder: loadConfig({}).migrationsFolder });
const db = database.db;
// The limits lifted as the writes group's server has them (still counted).
const write = writer(db, { writeLimitPerMinute: 1_000_000 });
const LIMIT = 1_000_000;

const anchor = (statement: PreparedStatement, values: PreparedValue[]) =>
  onWriteConnection(db, (connection) => queryPrepared(connection, statement, values));

/** One turn of a loop: its calls, each timed on its own (a like and its cancel are two). */
type Call = () => Promise<unknown>;
function turn(loop: number, round: number): Call[] {
  const userId = draw(spec.userIds);
  const viewer = { userId };
  const postId = draw(spec.postIds);
  const content = spec.content;
  const key = () => boundText(freshClientId());
  if (spec.case === 'likes') {
    if (spec.form === 'guarantees')
      return [
        () => anchor(GUARANTEED_STATEMENTS.likeAdd, [userId, postId, key(), chinaDay()]),
        () => anchor(GUARANTEED_STATEMENTS.likeCancel, [userId, postId, key()]),
      ];
    if (spec.form === 'anchor')
      return [() => anchor(RAW_WRITE_STATEMENTS.likeAdd, [userId, postId]), () => anchor(RAW_WRITE_STATEMENTS.likeCancel, [userId, postId])];
    return [true, false].map((on) => () => {
      const input = { post_id: postId, client_id: freshClientId() };
      return write.inStatement({ endpoint: on ? 'likeAdd' : 'likeCancel', viewer, input }, (tx, once) => setLike(tx, userId, { post_id: postId }, on, once));
    });
  }
  if (spec.case === 'comment') {
    if (spec.form === 'anchor') return [() => anchor(RAW_WRITE_STATEMENTS.commentAdd, [userId, postId, boundText(content)])];
    if (spec.form === 'guarantees') return [() => anchor(GUARANTEED_STATEMENTS.commentAdd, [userId, postId, boundText(content), key()])];
    return [
      () => {
        const input = { post_id: postId, content, client_id: freshClientId() };
        return write.inStatement({ endpoint: 'commentAdd', viewer, input }, (tx, once) => addComment(tx, userId, input, LIMIT, once));
      },
    ];
  }
  // Each loop takes the channels by turns, as the writes group's bodies do.
  const channelId = spec.channelIds[(loop + round) % spec.channelIds.length]!;
  if (spec.form === 'anchor') return [() => anchor(RAW_WRITE_STATEMENTS.postAdd, [userId, channelId, boundText(content)])];
  if (spec.form === 'guarantees' || spec.form === 'searchable') {
    const statement = spec.form === 'guarantees' ? GUARANTEED_STATEMENTS.postAdd : SEARCHABLE_POST_ADD;
    return [() => anchor(statement, [userId, channelId, boundText(content), key()])];
  }
  return [
    () => {
      const input = { content, channel_id: [channelId], attach: [], client_id: freshClientId() };
      return write.inStatement({ endpoint: 'postAdd', viewer, input }, (db, once) => addPost(db, userId, input, { hostname: 'localhost', dailyPostLimit: LIMIT }, once));
    },
  ];
}

/** `connections` loops for `seconds`: the latencies of the calls completed, and the errors. */
async function run(seconds: number): Promise<{ latencies: number[]; errors: number; ms: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const loop = async (index: number) => {
    for (let round = 0; performance.now() < until; round++) {
      for (const call of turn(index, round)) {
        const at = performance.now();
        try {
          await call();
          latencies.push(performance.now() - at);
        } catch (error) {
          if (errors++ === 0) console.error(`write-floor ${spec.case} ${spec.form}:`, error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, i) => loop(i)));
  return { latencies, errors, ms: performance.now() - started };
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
try {
  if (spec.warmup > 0) await run(spec.warmup);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await lines.next();
  const cpuBefore = process.cpuUsage();
  const { latencies, errors, ms } = await run(spec.seconds);
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? NaN;
  const out: FloorResult = {
    ops: latencies.length,
    seconds: ms / 1000,
    opsPerSecond: latencies.length / (ms / 1000),
    p50: at(0.5),
    p99: at(0.99),
    errors,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  // Until run.ts has read the database's CPU (our backends end with our pool).
  while (!(await lines.next()).done);
} finally {
  await database.close();
}
