/**
 * A transaction on one connection, for the writes. On PostgreSQL the work gets a drizzle of the
 * pooled connection itself (its $client), so db/prepared.ts prepares statements on that
 * connection and runs them as prepared, as the reads do on the pool; BEGIN is queued on the
 * connection ahead of the work's first statement, and a last statement (a write's stored answer)
 * goes out with the COMMIT, each instead of being waited for alone. PGlite (one session, nothing
 * to wait for) takes drizzle's transaction.
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './client.ts';
import * as schema from './schema.ts';

/** One drizzle per pooled connection, made the first time a transaction borrows it. */
const drizzleOfConnection = new WeakMap<pg.PoolClient, Db>();

function drizzleOf(connection: pg.PoolClient): Db {
  let tx = drizzleOfConnection.get(connection);
  if (!tx) {
    tx = drizzlePg(connection, { schema }) as unknown as Db;
    drizzleOfConnection.set(connection, tx);
  }
  return tx;
}

/**
 * Runs `work` in one transaction, then `last` with its result: committed when both resolve, rolled
 * back when either throws. `last` must send its statement as it is called (queryPrepared does), so
 * that it goes out before the COMMIT.
 */
export async function inTransaction<T>(
  db: Db,
  work: (tx: Db) => Promise<T>,
  last: (tx: Db, result: T) => Promise<unknown> | undefined = () => undefined,
): Promise<T> {
  const pool = (db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) {
    return db.transaction(async (tx) => {
      const result = await work(tx);
      await last(tx, result);
      return result;
    });
  }
  const connection = await pool.connect();
  let broken: Error | undefined;
  try {
    // The connection runs its queries in order: a BEGIN that fails (the connection lost) fails
    // every statement after it too, so nothing runs outside the transaction unnoticed.
    const begun = connection.query('begin');
    begun.catch(() => undefined);
    const tx = drizzleOf(connection);
    const result = await work(tx);
    await begun;
    const [, committed] = await Promise.all([last(tx, result), connection.query('commit')]);
    // A COMMIT after a failed statement answers ROLLBACK, not an error.
    if (committed.command !== 'COMMIT') throw new Error(`transaction ended with ${committed.command}`);
    return result;
  } catch (error) {
    await connection.query('rollback').catch((lost: unknown) => {
      broken = lost instanceof Error ? lost : new Error(String(lost));
    });
    throw error;
  } finally {
    connection.release(broken);
  }
}
