/**
 * Writes on a connection of their own. On PostgreSQL a write takes its connection with connect(),
 * ahead of the reads waiting for their share of the pool (db/client.ts), and works on a drizzle
 * of that connection (its $client), so db/prepared.ts prepares statements on it and runs them as
 * prepared, as the reads do on the pool. The connection pipelines: BEGIN goes out in one write
 * with the work's first statement, and a last statement (a write's stored answer, a notice) with
 * the COMMIT, each instead of a round trip alone. PGlite (one session, nothing to wait for) takes
 * drizzle's transaction.
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './client.ts';
import * as schema from './schema.ts';

/** One drizzle per pooled connection, made the first time a write borrows it. */
const drizzleOfConnection = new WeakMap<pg.ClientBase, Db>();
/** The database (its pool's drizzle) each connection's drizzle was lent by. */
const lenderOf = new WeakMap<Db, Db>();

function drizzleOf(connection: pg.ClientBase, lender: Db): Db {
  let tx = drizzleOfConnection.get(connection);
  if (!tx) {
    // A pooled connection is a pg.Client, which the types of pg.Pool.connect() do not say.
    tx = drizzlePg(connection as pg.Client, { schema }) as unknown as Db;
    drizzleOfConnection.set(connection, tx);
    lenderOf.set(tx, lender);
  }
  return tx;
}

/**
 * The database whose in-memory caches `db` reads and fills (services/authors.ts,
 * reference-names.ts): for a connection lent to a write, the pool's, so that what one write
 * learns serves every request, what is forgotten is forgotten for all, and nothing is read later
 * on a connection given back; `db` itself otherwise.
 */
export const cacheOwner = (db: Db): Db => lenderOf.get(db) ?? db;

const clientOf = (db: Db) => (db as { $client?: unknown }).$client;

/**
 * Runs `send` with the connection's socket corked: the queries it makes (pipelined, each sent as
 * it is made) leave in one write instead of one each. node-postgres corks the same socket around
 * the messages of each query.
 */
function together<T>(connection: pg.ClientBase, send: () => T): T {
  const socket = (connection as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  socket?.cork?.();
  try {
    return send();
  } finally {
    socket?.uncork?.();
  }
}

/**
 * Sends the queries `send` makes on `db` in one write when `db` is a connection taken for a write
 * (pipelined, they are then answered in one round trip); elsewhere it only runs `send`.
 */
export function sendTogether<T>(db: Db, send: () => T): T {
  const client = clientOf(db);
  return client instanceof pg.Client ? together(client, send) : send();
}

/**
 * Runs `work` on a connection of the pool taken for a write (on PGlite, or a connection already
 * taken, on `db` itself), given back after.
 */
export async function onWriteConnection<T>(db: Db, work: (connection: Db) => Promise<T>): Promise<T> {
  const pool = clientOf(db);
  if (!(pool instanceof pg.Pool)) return work(db);
  const connection = await pool.connect();
  try {
    return await work(drizzleOf(connection, db));
  } finally {
    // A connection still inside a transaction (its ROLLBACK failed) is closed, never lent again; one
    // that failed is no longer queryable, and the pool drops it too.
    const status = connection.getTransactionStatus();
    connection.release(status === 'T' || status === 'E' ? new Error(`connection left in transaction status ${status}`) : undefined);
  }
}

/**
 * Runs `work` in one transaction, then `last` with its result: committed when both resolve, rolled
 * back when either throws. `work` should send its first statement as it is called, and `last` its
 * statement (queryPrepared does), so that they go out with the BEGIN and with the COMMIT.
 */
export async function inTransaction<T>(
  db: Db,
  work: (tx: Db) => Promise<T>,
  last: (tx: Db, result: T) => Promise<unknown> | undefined = () => undefined,
): Promise<T> {
  const client = clientOf(db);
  if (client instanceof pg.Pool) return onWriteConnection(db, (connection) => inTransaction(connection, work, last));
  if (!(client instanceof pg.Client)) {
    return db.transaction(async (tx) => {
      const result = await work(tx);
      await last(tx, result);
      return result;
    });
  }
  const connection = client;
  try {
    // The connection runs its queries in order: a BEGIN that fails (the connection lost) fails
    // every statement after it too, so nothing runs outside the transaction unnoticed.
    const [begun, working] = together(connection, () => [connection.query('begin'), work(db)] as const);
    begun.catch(() => undefined);
    const result = await working;
    await begun;
    const [, committed] = await Promise.all(together(connection, () => [last(db, result), connection.query('commit')] as const));
    // A COMMIT after a failed statement answers ROLLBACK, not an error.
    if (committed.command !== 'COMMIT') throw new Error(`transaction ended with ${committed.command}`);
    return result;
  } catch (error) {
    await connection.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * Two statements in one transaction sent in one go, BEGIN, `first`, `second` and COMMIT: one round
 * trip. Each must send its statement as it is called (queryPrepared does), and `second` may not
 * need `first`'s answer (SQL reading what `first` did is fine: it runs after it). A failed
 * statement fails the rest, the COMMIT answers ROLLBACK and the first error is thrown.
 */
export async function inOneTrip<A, B>(db: Db, first: (tx: Db) => Promise<A>, second: (tx: Db) => Promise<B>): Promise<[A, B]> {
  const client = clientOf(db);
  if (client instanceof pg.Pool) return onWriteConnection(db, (connection) => inOneTrip(connection, first, second));
  if (!(client instanceof pg.Client)) {
    return db.transaction(async (tx) => {
      const a = await first(tx);
      return [a, await second(tx)];
    });
  }
  const connection = client;
  const sent = together(connection, () => [connection.query('begin'), first(db), second(db), connection.query('commit')] as const);
  const settled = Promise.allSettled(sent);
  try {
    const [begun, a, b, committed] = sent;
    await begun;
    const answers: [A, B] = [await a, await b];
    const { command } = await committed;
    if (command !== 'COMMIT') throw new Error(`transaction ended with ${command}`);
    return answers;
  } catch (error) {
    await settled;
    // A statement that failed made the COMMIT a ROLLBACK; a connection lost is dropped by the pool.
    if (connection.getTransactionStatus() !== 'I') await connection.query('rollback').catch(() => undefined);
    throw error;
  }
}
