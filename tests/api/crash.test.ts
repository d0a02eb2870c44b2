/**
 * Crash safety, on PGlite and on PostgreSQL: a real server process is
 * killed with SIGKILL while 200 comment writes are in flight, then started again on the same
 * data. The database opens; every write that was acknowledged (answered code 0) is there
 * exactly once, with the answer it was acknowledged with; no write is there twice; the
 * counters agree with the rows. The client then retries all 200 with their client_ids, as the
 * outbox does: each becomes exactly one comment, and the acknowledged ones answer their
 * original answer. On PGlite the folder's lock, left by the killed process, is taken over.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Comment } from '../../src/shared/schemas.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { phoneSource } from '../support/api.ts';
import { counterMismatches, migrationsFolder, openPostgresTestDatabase, openTestDatabase, queryRows } from '../support/db.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const WRITES = 200;
/** Killed once this many writes have been acknowledged (the rest are in flight or not yet begun). */
const KILL_AFTER_ACKS = 60;
const POSTS = [21, 22, 23, 24];

afterAll(() => removeServerBundle());

const ENV = { WRITE_LIMIT_PER_MINUTE: '100000', DAILY_COMMENT_LIMIT: '100000', MAX_CONNECTIONS_PER_ADDRESS: '1000', REQUEST_LIMIT_PER_ADDRESS: '100000', REQUEST_LIMIT_PER_USER: '100000' };

async function logIn(server: ServerProcess, phone: string): Promise<string> {
  await callOver(server.url, api.loginCode.path, { cellphone: phone });
  for (let i = 0; i < 100 && !server.codeFor(phone); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  // Sent as an app sends it (with its Device-Id), the login answers the ticket.
  const answer = await callOver<{ ticket: string }>(server.url, api.login.path, { cellphone: phone, code: server.codeFor(phone), device_kind: 'pc' }, { headers: { 'device-id': 'crash-test-device' } });
  if (!answer.body.data) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return answer.body.data.ticket;
}

/** The ticket as the app that logged in sends it: the Ticket header with its Device-Id. */
const asApp = (ticket: string) => ({ headers: { ticket, 'device-id': 'crash-test-device' } });

const bodyOf = (run: string, i: number) => ({ post_id: POSTS[i % POSTS.length]!, content: `崩溃测试 ${run} #${i}`, client_id: `crash-${run}-${String(i).padStart(4, '0')}` });

/**
 * Sends WRITES comments at once and kills the server after KILL_AFTER_ACKS acknowledgements:
 * returns the acknowledged ones (client_id -> comment id).
 */
async function writeAndKill(server: ServerProcess, ticket: string, run: string): Promise<Map<string, number>> {
  const acknowledged = new Map<string, number>();
  let killing: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: WRITES }, async (_, i) => {
      const body = bodyOf(run, i);
      try {
        const answer = await callOver<Comment>(server.url, api.commentAdd.path, body, asApp(ticket));
        if (answer.body.code === 0 && !killing) {
          acknowledged.set(body.client_id, answer.body.data!.id);
          if (acknowledged.size >= KILL_AFTER_ACKS) killing = server.kill();
        }
      } catch {
        // The connection died with the process: not acknowledged.
      }
    }),
  );
  await (killing ?? server.kill());
  return acknowledged;
}

/** After the restart: each acknowledged write there once, as acknowledged; none twice; counters right. */
async function expectAcknowledgedOnce(db: Database['db'], run: string, acknowledged: Map<string, number>): Promise<void> {
  const rows = await queryRows<{ content: string; id: number; n: number }>(
    db,
    sql`select content, min(id)::int as id, count(*)::int as n from comments where content like ${`崩溃测试 ${run} #%`} group by content`,
  );
  expect(rows.filter((row) => row.n !== 1), 'comments written twice').toEqual([]);
  const byContent = new Map(rows.map((row) => [row.content, row.id]));
  for (const [clientId, id] of acknowledged) expect(byContent.get(bodyOf(run, Number(clientId.slice(-4))).content), `acknowledged ${clientId}`).toBe(id);
  const mismatches = await counterMismatches(db);
  expect(Object.values(mismatches).every((n) => n === 0), JSON.stringify(mismatches)).toBe(true);
}

/** The client's outbox sends all of them again with their client_ids: every one answered, the acknowledged ones as before. */
async function retryAll(server: ServerProcess, ticket: string, run: string, acknowledged: Map<string, number>): Promise<void> {
  const retried = await Promise.all(Array.from({ length: WRITES }, (_, i) => callOver<Comment>(server.url, api.commentAdd.path, bodyOf(run, i), asApp(ticket))));
  expect(retried.filter((answer) => answer.body.code !== 0).map((answer) => answer.body)).toEqual([]);
  for (const [clientId, id] of acknowledged) expect(retried[Number(clientId.slice(-4))]!.body.data!.id, clientId).toBe(id);
}

/** After the retries: exactly one comment per write. */
async function expectEachOnce(db: Database['db'], run: string): Promise<void> {
  const [after] = await queryRows<{ n: number; distinct: number }>(
    db,
    sql`select count(*)::int as n, count(distinct content)::int as distinct from comments where content like ${`崩溃测试 ${run} #%`}`,
  );
  expect(after).toEqual({ n: WRITES, distinct: WRITES });
  const mismatches = await counterMismatches(db);
  expect(Object.values(mismatches).every((n) => n === 0), JSON.stringify(mismatches)).toBe(true);
}

describe('kill -9 during 200 concurrent writes', () => {
  it('on PGlite: the folder opens again and every acknowledged write is there exactly once', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'crash-pglite-'));
    const open = () => openDatabase({ dataDir, migrationsFolder });
    try {
      await (await openTestDatabase({ dataDir })).close();
      let server = await startServerProcess({ env: { ...ENV, DATA_DIR: dataDir } });
      const ticket = await logIn(server, phoneSource('1570010')());
      const acknowledged = await writeAndKill(server, ticket, 'pglite');
      expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
      console.log(`crash on PGlite: ${acknowledged.size} of ${WRITES} writes acknowledged before kill -9`);

      // The folder opens (the killed process's lock is taken over), with what was acknowledged.
      let database = await open();
      try {
        await expectAcknowledgedOnce(database.db, 'pglite', acknowledged);
      } finally {
        await database.close();
      }
      server = await startServerProcess({ env: { ...ENV, DATA_DIR: dataDir } });
      try {
        await retryAll(server, ticket, 'pglite', acknowledged);
      } finally {
        await server.stop();
      }
      database = await open();
      try {
        await expectEachOnce(database.db, 'pglite');
      } finally {
        await database.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL: the API process starts again and every acknowledged write is there exactly once', { timeout: 180_000 }, async () => {
    const opened = await openPostgresTestDatabase();
    try {
      let server = await startServerProcess({ env: { ...ENV, DATABASE_URL: opened.url } });
      const ticket = await logIn(server, phoneSource('1570011')());
      const acknowledged = await writeAndKill(server, ticket, 'postgres');
      expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
      console.log(`crash on PostgreSQL: ${acknowledged.size} of ${WRITES} writes acknowledged before kill -9`);
      server = await startServerProcess({ env: { ...ENV, DATABASE_URL: opened.url } });
      try {
        await expectAcknowledgedOnce(opened.database.db, 'postgres', acknowledged);
        await retryAll(server, ticket, 'postgres', acknowledged);
        await expectEachOnce(opened.database.db, 'postgres');
      } finally {
        await server.stop();
      }
    } finally {
      await opened.database.close();
      await opened.stop();
    }
  });
});
