/**
 * Did a request change the database? Two ways to tell, for the API tests of refusals:
 *
 * - installChangeCounter(): row-level triggers on every table count each row inserted, updated
 *   or deleted in a one-row table, inside the writing transaction, so a write that rolls back
 *   counts nothing. Reading the count is one query: cheap enough to check after every one of
 *   thousands of fuzzed requests. Run one request at a time while it is installed (the counter
 *   row is a point of contention for concurrent writers).
 * - databaseDigest(): an md5 of every row of every table, for a check before and after a whole
 *   series of requests.
 *
 * Both leave out the bookkeeping that a refusal is meant to move: rate-limit windows (a refused
 * request still counts against its limit) and login codes (a wrong code still counts a try).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.ts';
import { queryRows } from './db.ts';

/** Tables a refused request may still change, by design. */
export const BOOKKEEPING_TABLES = ['rate_limits', 'login_codes'];

const COUNTER_TABLE = 'test_row_changes';

/** The application's tables (public schema), minus `except`. */
export async function applicationTables(db: Db, except: string[] = BOOKKEEPING_TABLES): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((row) => row.name).filter((name) => name !== COUNTER_TABLE && !except.includes(name));
}

/** Installs the triggers; returns a reader of the number of rows changed since. */
export async function installChangeCounter(db: Db): Promise<() => Promise<number>> {
  const tables = await applicationTables(db);
  await db.execute(sql.raw(`create table if not exists ${COUNTER_TABLE} (n bigint not null)`));
  await db.execute(sql.raw(`insert into ${COUNTER_TABLE} select 0 where not exists (select 1 from ${COUNTER_TABLE})`));
  await db.execute(
    sql.raw(`create or replace function test_count_row_change() returns trigger language plpgsql as $$
      begin update ${COUNTER_TABLE} set n = n + 1; return null; end $$`),
  );
  for (const table of tables) {
    await db.execute(sql.raw(`drop trigger if exists test_count_row_change on "${table}"`));
    await db.execute(
      sql.raw(`create trigger test_count_row_change after insert or update or delete on "${table}"
        for each row execute function test_count_row_change()`),
    );
  }
  return async () => Number((await queryRows<{ n: string | number }>(db, sql.raw(`select n from ${COUNTER_TABLE}`)))[0]?.n ?? 0);
}

/** md5 of every row of every application table (bookkeeping left out), table by table. */
export async function databaseDigest(db: Db): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  for (const table of await applicationTables(db)) {
    const [row] = await queryRows<{ md5: string | null; n: number }>(
      db,
      sql.raw(`select md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as md5, count(*)::int as n from "${table}" t`),
    );
    digest[table] = `${row?.n ?? 0}:${row?.md5 ?? ''}`;
  }
  return digest;
}
