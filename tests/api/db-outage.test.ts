/**
 * The database may come and go (PostgreSQL; PGlite lives inside the process). A real server
 * process takes comment writes from many writers at once, and reads, while PostgreSQL ends its
 * connections (pg_terminate_backend) or restarts (pg_ctl restart -m immediate, as after a
 * crash, and -m fast). Through
 * it all the process stays up; every answer is an envelope, never an HTTP 500: an outage is
 * answered 503 with -1002 (retryable) and a Retry-After; once the database is back the same
 * process answers again (polled for, not timed); and every write that was acknowledged is in
 * the database exactly once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Comment } from '../../src/shared/schemas.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { seedDemoData } from '../../src/server/seed/seed.ts';
import { migrationsFolder, startPostgres, type PostgresServer } from '../support/db.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const WRITERS = 16;
const READERS = 4;
/** Writes each writer sends at most in one trial (the trial ends sooner once the database is back). */
const MAX_WRITES_PER_WRITER = 300;
const PHONE = '15834070001';
const POSTS = [21, 22, 23, 24];

interface Answer {
  status: number;
  code: number;
  errorCode?: number;
  retryAfter: string | null;
}

let postgres: PostgresServer;
let database: Database;
let server: ServerProcess;
let ticket: string;

beforeAll(async () => {
  // Commits wait for their WAL to reach the kernel: a killed server keeps what it acknowledged.
  postgres = await startPostgres(['synchronous_commit=on']);
  database = await openDatabase({ databaseUrl: postgres.url, migrationsFolder });
  await seedDemoData(database.db);
  await database.close();
  server = await startServerProcess({
    env: {
      DATABASE_URL: postgres.url,
      WRITE_LIMIT_PER_MINUTE: '1000000',
      DAILY_COMMENT_LIMIT: '1000000',
      REQUEST_LIMIT_PER_ADDRESS: '1000000',
      REQUEST_LIMIT_PER_USER: '1000000',
    },
  });
  await callOver(server.url, api.loginCode.path, { cellphone: PHONE });
  for (let i = 0; i < 200 && !server.codeFor(PHONE); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const login = await fetch(`${server.url}${api.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cellphone: PHONE, code: server.codeFor(PHONE), device_kind: 'pc' }),
  });
  ticket = /GCESS=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await postgres?.stop();
  await removeServerBundle();
});

async function send(path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `GCESS=${ticket}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: { code: number; error?: { code: number } };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw new Error(`not an envelope (HTTP ${response.status}): ${text.slice(0, 200)}`);
  }
  return { status: response.status, code: json.code, ...(json.error ? { errorCode: json.error.code } : {}), retryAfter: response.headers.get('retry-after') };
}

/**
 * Writers send comments, and readers read posts, while `fault` runs; after it, they go on until
 * each writer has had a write acknowledged again. Returns the acknowledged writes and every answer.
 */
async function writeThrough(run: string, fault: () => Promise<void>): Promise<{ acknowledged: Set<string>; answers: Answer[]; recovered: boolean }> {
  const acknowledged = new Set<string>();
  const answers: Answer[] = [];
  let faultDone = false;
  /** The writers that had a write acknowledged after the fault. */
  const recoveredWriters = new Set<number>();
  let dropped = 0;
  const going = () => !(faultDone && recoveredWriters.size === WRITERS);
  /** An answer, or undefined for a connection the server dropped; anything that is not an envelope fails the test. */
  const answerOf = async (send: () => Promise<Answer>): Promise<Answer | undefined> => {
    try {
      const answer = await send();
      answers.push(answer);
      // Told to come back later: as a client does.
      if (answer.retryAfter) await new Promise((resolve) => setTimeout(resolve, 50));
      return answer;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('not an envelope')) throw error;
      dropped++;
      return undefined;
    }
  };
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; i < MAX_WRITES_PER_WRITER && going(); i++) {
      const body = { post_id: POSTS[(w + i) % POSTS.length]!, content: `断线测试 ${run} ${w}-${i}`, client_id: `outage-${run}-${w}-${i}` };
      const answer = await answerOf(() => send(api.commentAdd.path, body));
      if (answer?.code === 0) {
        acknowledged.add(body.content);
        if (faultDone) recoveredWriters.add(w);
      }
    }
  });
  const readers = Array.from({ length: READERS }, async (_, r) => {
    for (let i = 0; i < MAX_WRITES_PER_WRITER && going(); i++) await answerOf(() => send(api.postDetail.path, { post_id: POSTS[(r + i) % POSTS.length] }));
  });
  // The fault comes once writes are flowing.
  for (let i = 0; i < 600 && acknowledged.size < 2 * WRITERS; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  await fault();
  faultDone = true;
  await Promise.all([...writers, ...readers]);
  const unavailable = answers.filter((answer) => answer.status === 503).length;
  console.log(`${run}: ${answers.length} answers, ${acknowledged.size} writes acknowledged, ${unavailable} answered 503 -1002, ${dropped} connections dropped`);
  return { acknowledged, answers, recovered: recoveredWriters.size === WRITERS };
}

async function expectEachOnce(run: string, acknowledged: Set<string>): Promise<void> {
  // A connection of its own: the test's pool lost its connections with the server's.
  const checker = new pg.Client({ connectionString: postgres.url });
  await checker.connect();
  let rows: { content: string; n: number }[];
  try {
    rows = (
      await checker.query<{ content: string; n: number }>(
        'select content, count(*)::int as n from comments where content like $1 group by content',
        [`断线测试 ${run} %`],
      )
    ).rows;
  } finally {
    await checker.end();
  }
  const stored = new Map(rows.map((row) => [row.content, row.n]));
  expect(rows.filter((row) => row.n !== 1), 'written twice').toEqual([]);
  const missing = [...acknowledged].filter((content) => stored.get(content) !== 1);
  expect(missing, 'acknowledged but not stored').toEqual([]);
}

function expectEnvelopes(answers: Answer[]): void {
  expect(answers.filter((answer) => answer.status === 500), 'HTTP 500').toEqual([]);
  for (const answer of answers) {
    if (answer.code === 0) continue;
    // An outage is -1002 (HTTP 503, retry after a moment).
    expect(answer.errorCode).toBe(-1002);
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).not.toBeNull();
  }
}

async function terminateAppConnections(): Promise<number> {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL going away under concurrent writes', () => {
  it('survives its connections being ended (pg_terminate_backend), three times over', { timeout: 300_000 }, async () => {
    for (let trial = 1; trial <= 3; trial++) {
      const run = `terminate-${trial}`;
      const { acknowledged, answers, recovered } = await writeThrough(run, async () => {
        expect(await terminateAppConnections()).toBeGreaterThan(0);
      });
      expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
      expect(recovered, 'every writer had a write acknowledged after the fault').toBe(true);
      expectEnvelopes(answers);
      await expectEachOnce(run, acknowledged);
    }
  });

  it('survives restarts (pg_ctl restart -m immediate, as a crash, and -m fast), answering 503 -1002 while it is down, and serves again', { timeout: 300_000 }, async () => {
    for (const [trial, mode] of (['immediate', 'fast', 'immediate'] as const).entries()) {
      const run = `restart-${mode}-${trial}`;
      const { acknowledged, answers, recovered } = await writeThrough(run, () => postgres.restart(mode));
      expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
      expect(recovered, 'every writer had a write acknowledged after the restart').toBe(true);
      expectEnvelopes(answers);
      expect(answers.some((answer) => answer.errorCode === -1002), 'some write answered during the outage').toBe(true);
      await expectEachOnce(run, acknowledged);
    }
    // Reads are served again too.
    const detail = await callOver<Comment>(server.url, api.postDetail.path, { post_id: 21 });
    expect(detail.body.code).toBe(0);
  });
});
