/**
 * `npm run export-to-postgres -- <DATABASE_URL>`: the PGlite community in DATA_DIR copied into an
 * empty PostgreSQL database, for when it outgrows one process. Stop the server first (the folder
 * is locked to one process). The target gets the same migrations, then every table is copied in
 * foreign-key order with its ids, and every sequence continues where the community's stood, so
 * the server started on DATABASE_URL serves the same posts, users, images, likes and counts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { loadConfigOrExit } from '../boot.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { isMain, runTool, ToolError } from './cli.ts';

/** Rows per statement: one statement carries a batch as one JSON parameter. */
const BATCH_ROWS = 200;

export interface ExportSummary {
  /** Rows copied, per table. */
  rows: Record<string, number>;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The public tables, each after the tables its foreign keys point to. */
async function tablesInDependencyOrder(source: PGlite): Promise<string[]> {
  const tables = (await source.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by tablename`)).rows.map((row) => row.name);
  const edges = (
    await source.query<{ child: string; parent: string }>(
      `select c.relname as child, p.relname as parent from pg_constraint k
         join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
         join pg_namespace n on n.oid = c.relnamespace
       where k.contype = 'f' and n.nspname = 'public' and c.relname <> p.relname`,
    )
  ).rows;
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((table) => !placed.has(table) && edges.every((edge) => edge.child !== table || placed.has(edge.parent)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle among ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table);
    }
  }
  return ordered;
}

async function targetTablesWithRows(target: Database, tables: string[]): Promise<string[]> {
  const filled: string[] = [];
  for (const table of tables) {
    const result = (await target.db.execute(sql.raw(`select exists (select 1 from ${ident(table)}) as found`))) as unknown as { rows: { found: boolean }[] };
    if (result.rows[0]?.found) filled.push(table);
  }
  return filled;
}

/** The table's columns a row is written with: all but those PostgreSQL makes (generated), which it makes again. */
async function writtenColumns(target: pg.PoolClient, table: string): Promise<string> {
  const { rows } = await target.query<{ name: string }>(
    `select column_name as name from information_schema.columns
     where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  );
  return rows.map((row) => ident(row.name)).join(', ');
}

/** Copies one table in batches, read through a cursor of the source's one snapshot. */
async function copyTable(source: Transaction, target: pg.PoolClient, table: string): Promise<number> {
  const columns = await writtenColumns(target, table);
  const cursor = `export_${table}`;
  await source.query(`declare ${ident(cursor)} no scroll cursor for select row_to_json(t)::text as row from ${ident(table)} t`);
  let copied = 0;
  for (;;) {
    const batch = (await source.query<{ row: string }>(`fetch ${BATCH_ROWS} from ${ident(cursor)}`)).rows;
    if (batch.length === 0) break;
    // json_populate_recordset turns each JSON value back into its column's type (bytea from its hex text too).
    await target.query(`insert into ${ident(table)} (${columns}) select ${columns} from json_populate_recordset(null::${ident(table)}, $1::json)`, [
      `[${batch.map((row) => row.row).join(',')}]`,
    ]);
    copied += batch.length;
  }
  await source.query(`close ${ident(cursor)}`);
  return copied;
}

/** Sets each target sequence to where the source's stands, so new ids continue after the copied ones. */
async function copySequences(source: Transaction, target: pg.PoolClient): Promise<void> {
  const sequences = (
    await source.query<{ name: string; last: string | null }>(`select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public'`)
  ).rows;
  for (const { name, last } of sequences) {
    // A sequence never used stays as the migrations made it.
    if (last !== null) await target.query('select setval($1::regclass, $2::bigint, true)', [ident(name), last]);
  }
}

/** Copies the community in `dataDir` into the empty PostgreSQL database at `databaseUrl`. */
export async function exportToPostgres(dataDir: string, databaseUrl: string, migrationsFolder: string): Promise<ExportSummary> {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new ToolError(`${dataDir} holds no PGlite database (no PG_VERSION): nothing to export`);
  // Opening the folder takes its lock (no server may be running) and brings it to the same migrations.
  const source = await openDatabase({ dataDir, migrationsFolder });
  try {
    const sourceClient = (source.db as unknown as { $client: PGlite }).$client;
    const tables = await tablesInDependencyOrder(sourceClient);
    let target: Database;
    try {
      target = await openDatabase({ databaseUrl, migrationsFolder, poolSize: 1 });
    } catch (error) {
      throw new ToolError(`cannot prepare the PostgreSQL database: ${(error as Error).message}`);
    }
    try {
      const filled = await targetTablesWithRows(target, tables);
      if (filled.length > 0) throw new ToolError(`the PostgreSQL database is not empty (rows in ${filled.join(', ')}): export into an empty database`);
      const pool = (target.db as unknown as { $client: pg.Pool }).$client;
      const targetClient = await pool.connect();
      const rows: Record<string, number> = {};
      try {
        // One transaction on each side: the copy reads one snapshot and lands whole or not at all.
        await targetClient.query('begin');
        // The rows land as they are, those the triggers derive (poll cards, viewer marks' versions)
        // included: with the triggers on they would be derived again on top of the copied ones.
        for (const table of tables) await targetClient.query(`alter table ${ident(table)} disable trigger user`);
        await sourceClient.transaction(async (tx) => {
          for (const table of tables) rows[table] = await copyTable(tx, targetClient, table);
          await copySequences(tx, targetClient);
        });
        for (const table of tables) await targetClient.query(`alter table ${ident(table)} enable trigger user`);
        await targetClient.query('commit');
      } catch (error) {
        await targetClient.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        targetClient.release();
      }
      return { rows };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

if (isMain(import.meta.url)) {
  await runTool(async () => {
    const [databaseUrl, ...extra] = process.argv.slice(2);
    if (!databaseUrl || extra.length > 0 || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new ToolError('usage: npm run export-to-postgres -- postgres://user@host:5432/database   (stop the server first; DATA_DIR names the PGlite folder)');
    }
    const config = loadConfigOrExit();
    const { rows } = await exportToPostgres(config.dataDir, databaseUrl, config.migrationsFolder);
    const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
    process.stdout.write(`copied ${total} rows in ${Object.keys(rows).length} tables from ${config.dataDir}; start the server with DATABASE_URL set to it\n`);
  });
}
