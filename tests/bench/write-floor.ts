/**
 * The write path without HTTP (the write-floor group of run.ts), in a process of its own so that
 * its CPU is its own: `connections` async loops call the app's write path directly (writer() with
 * the effect as routes/posts.ts calls it, no login lookup) or the raw anchor's statement as the
 * anchored server runs it, on the app's own pool (openDatabase, 10 connections).
 *
 * Spawned by run.ts with a FloorSpec as JSON. It opens the database and warms up, prints
 * `{"ready":true}`, waits for a line on stdin, runs for `seconds`, prints one line of JSON with
 * the figures (FloorResult), then waits for stdin to close before closing its pool: run.ts reads
 * the database's CPU while this process's backends still live.
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { boundText, queryPrepared, type PreparedStatement, type PreparedValue } from '../../src/server/db/prepared.ts';
import { onWriteConnection } from '../../src/server/db/transaction.ts';
import { addComment } from '../../src/server/services/comments.ts';
import { writer } from '../../src/server/services/once.ts';
import { setLike } from '../../src/server/services/likes.ts';
import { addPost } from '../../src/server/services/post-add.ts';
import { RAW_WRITE_STATEMENTS } from './server-anchors.ts';

export type FloorCase = 'likes' | 'comment' | 'post';
export type FloorForm = 'service' | 'anchor';

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
  if (spec.case === 'likes') {
    if (spec.form === 'anchor')
      return [() => anchor(RAW_WRITE_STATEMENTS.likeAdd, [userId, postId]), () => anchor(RAW_WRITE_STATEMENTS.likeCancel, [userId, postId])];
    return [true, false].map((on) => () => {
      const input = { post_id: postId, client_id: freshClientId() };
      return write.inStatement({ endpoint: on ? 'likeAdd' : 'likeCancel', viewer, input }, (tx, once) => setLike(tx, userId, { post_id: postId }, on, once));
    });
  }
  if (spec.case === 'comment') {
    if (spec.form === 'anchor') return [() => anchor(RAW_WRITE_STATEMENTS.commentAdd, [userId, postId, boundText(content)])];
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
  return [
    () => {
      const input = { content, channel_id: [channelId], attach: [], client_id: freshClientId() };
      return write({ endpoint: 'postAdd', viewer, input }, (tx) => addPost(tx, userId, input, { hostname: 'localhost', dailyPostLimit: LIMIT }));
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
