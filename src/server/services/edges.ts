/**
 * One toggle for every "A follows B" edge: insert or delete the edge row and move the counters
 * that count it, in the caller's transaction, only when a row really changed. Used by channel
 * follows (channels.ts) and user follows (users.ts); a like is one statement of its own
 * (likes.ts: the edge, its counters and the exactly-once key, in the same order):
 *
 *   toggleEdge(tx, {
 *     table: userFollows,
 *     key: { followerId, followeeId },
 *     on: true,
 *     counters: [counter(users.followingCount, followerId), counter(users.followerCount, followeeId)],
 *   });
 *
 * Repeating a toggle is harmless (the second insert hits the primary key and does nothing, the
 * second delete finds nothing), so counters stay exact under retries and concurrent calls: on
 * PostgreSQL a concurrent insert of the same key waits for the first and then does nothing, and a
 * concurrent delete finds the row gone.
 */
import { and, eq, getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

/** A counter column on one row, addressed by the row's `id`. */
export interface Counter {
  column: PgColumn;
  id: number;
}

/** The counter `column` on the row whose id is `id` (of the column's own table). */
export function counter(column: PgColumn, id: number): Counter {
  return { column, id };
}

export interface EdgeToggle<T extends PgTable> {
  /** The edge table; its primary key is the edge's key. */
  table: T;
  /** The key columns of the edge (inserted as the row; matched on delete). */
  key: PgInsertValue<T>;
  /** true: the edge should exist (follow, like); false: it should not. */
  on: boolean;
  /** Counted by the edge: +1 when it is inserted, -1 when it is deleted, untouched otherwise. */
  counters: readonly Counter[];
}

/** Inserts or deletes the edge; true when a row changed (and so the counters moved). */
export async function toggleEdge<T extends PgTable>(tx: Db, { table, key, on, counters }: EdgeToggle<T>): Promise<boolean> {
  const changed = on ? await insertEdge(tx, table, key) : await deleteEdge(tx, table, key);
  if (!changed) return false;
  const step = on ? 1 : -1;
  // One lock order for every toggle (table, then id), so two toggles that touch the same rows
  // (A follows B while B follows A) never wait on each other in a cycle.
  const ordered = [...counters].sort(
    (a, b) => getTableName(a.column.table).localeCompare(getTableName(b.column.table)) || a.id - b.id,
  );
  for (const { column, id } of ordered) {
    const idColumn = getTableColumns(column.table)['id'];
    if (!idColumn) throw new Error(`toggleEdge: ${getTableName(column.table)} has no id column`);
    await tx.execute(
      sql`update ${column.table} set ${sql.identifier(column.name)} = ${column} + ${step} where ${idColumn} = ${id}`,
    );
  }
  return true;
}

async function insertEdge<T extends PgTable>(tx: Db, table: T, key: PgInsertValue<T>): Promise<boolean> {
  const rows = await tx.insert(table).values(key).onConflictDoNothing().returning({ one: sql<number>`1` });
  return rows.length > 0;
}

async function deleteEdge<T extends PgTable>(tx: Db, table: T, key: PgInsertValue<T>): Promise<boolean> {
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const conditions: SQL[] = [];
  for (const [name, value] of Object.entries(key)) {
    const column = columns[name];
    if (!column) throw new Error(`toggleEdge: ${getTableName(table)} has no column ${name}`);
    conditions.push(eq(column, value));
  }
  if (conditions.length === 0) throw new Error('toggleEdge: an edge needs a key');
  const rows = await tx
    .delete(table)
    .where(and(...conditions))
    .returning({ one: sql<number>`1` });
  return rows.length > 0;
}
