/**
 * PostgreSQL may end a pooled connection at any time (a restart, a failover, an administrator):
 * the API process must keep serving, never die of the pool's error event.
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createConfiguredDatabase } from '../../src/server/boot.ts';
import { loadConfig } from '../../src/server/config.ts';
import { connectionsKeptForWrites, openDatabase, type Database } from '../../src/server/db/client.ts';
import { inTransaction } from '../../src/server/db/transaction.ts';
import { openPostgresTestDatabase, queryRows } from '../support/db.ts';

describe('the PostgreSQL pool', () => {
  let opened: Awaited<ReturnType<typeof openPostgresTestDatabase>>;
  let database: Database;
  const lost = vi.fn();

  beforeAll(async () => {
    opened = await openPostgresTestDatabase();
    database = await openDatabase({
      databaseUrl: opened.url,
      migrationsFolder: loadConfig().migrationsFolder,
      onIdleConnectionError: lost,
    });
  });
  afterAll(async () => {
    await database?.close();
    await opened?.database.close();
    await opened?.stop();
  });

  it('survives its idle connections being ended by the server, and opens new ones', async () => {
    // Hold three connections at once, so the pool keeps three idle afterwards.
    await Promise.all([1, 2, 3].map(() => queryRows(database.db, sql`select pg_sleep(0.05)`)));
    const admin = new pg.Client({ connectionString: opened.url });
    await admin.connect();
    try {
      const ended = await admin.query(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name = $1',
        [''],
      );
      expect(ended.rows[0].n).toBeGreaterThanOrEqual(3);
    } finally {
      await admin.end();
    }
    // The pool hears of each of its three idle connections' end, one at a time: a query sent
    // before the last is heard of may be handed a connection whose end is on its way (as pg's
    // pool does; the clean-clone run met it once).
    await vi.waitFor(() => expect(lost.mock.calls.length).toBeGreaterThanOrEqual(3));
    expect(lost.mock.calls[0]![0]).toBeInstanceOf(Error);
    const rows = await queryRows<{ ok: number }>(database.db, sql`select 1 as ok`);
    expect(rows[0]!.ok).toBe(1);
  });

  it('compiles no plan and starts no parallel workers: its queries are many and small', async () => {
    const rows = await queryRows<{ jit: string; workers: string }>(
      database.db,
      sql`select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`,
    );
    expect(rows[0]).toEqual({ jit: 'off', workers: '0' });
  });

  it('keeps connections for writes: a write runs at once while a crowd of reads waits for its share', async () => {
    await expectWriteRunsPastReads(database, opened.url, 10);
  });

  it('takes its size from DATABASE_POOL_SIZE, and a pool of two still keeps one connection for writes', async () => {
    const small = await createConfiguredDatabase(loadConfig({ DATABASE_URL: opened.url, DATABASE_POOL_SIZE: '2' }));
    try {
      await small.connect();
      await expectWriteRunsPastReads(small, opened.url, 2);
    } finally {
      await small.close();
    }
  });

  it('keeps at least one connection for writes and leaves reads at least one, at every size a setting allows', () => {
    for (let size = 2; size <= 1000; size++) {
      const kept = connectionsKeptForWrites(size);
      expect(kept, `size ${size}`).toBeGreaterThanOrEqual(1);
      expect(size - kept, `size ${size}`).toBeGreaterThanOrEqual(1);
    }
    expect(connectionsKeptForWrites(10)).toBe(3);
    // A tool's pool of one (export-to-postgres) has only the one, for whatever comes.
    expect(connectionsKeptForWrites(1)).toBe(0);
  });
});

const READ_SLEEP_S = 4;

/** A crowd of slow reads takes the readers' share of a pool of `size`; a write then runs at once on a kept connection. */
async function expectWriteRunsPastReads(database: Database, url: string, size: number): Promise<void> {
  const kept = connectionsKeptForWrites(size);
  expect(kept).toBeGreaterThan(0);
  // As many reads as the pool has connections: the readers' share busy, the rest waiting for it.
  // Each sleeps long enough that none ends while the write and the count below are made on a
  // loaded machine (one that did would let the next start, and the count read a moment between).
  const crowd = size;
  const reads = Array.from({ length: crowd }, () => queryRows(database.db, sql`select pg_sleep(${READ_SLEEP_S})`));
  try {
    // The reads have taken their share of the pool, and the rest of them wait for it.
    await vi.waitFor(() => expect(database.poolStats!().waiting).toBeGreaterThanOrEqual(crowd - (size - kept)));
    const started = performance.now();
    const [row] = await inTransaction(database.db, (tx) => queryRows<{ ok: number }>(tx, sql`select 1 as ok`));
    const waited = performance.now() - started;
    expect(row!.ok).toBe(1);
    // Behind the reads it would wait for the first of them to end: the whole sleep.
    expect(waited).toBeLessThan((READ_SLEEP_S * 1000) / 2);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const sleeping = await admin.query(`select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep(%' and state = 'active'`);
      expect(sleeping.rows[0].n).toBe(size - kept);
    } finally {
      await admin.end();
    }
  } finally {
    await Promise.allSettled(reads);
  }
}
