/**
 * Opens the database: PGlite in a folder when no DATABASE_URL is given, PostgreSQL otherwise.
 * Both run the same migrations, so the two can never differ in shape.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... ; absent: embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; absent with no databaseUrl: in memory. */
  dataDir?: string | undefined;
  /** A PGlite dumpDataDir() tarball to start from (fast test databases). */
  loadDataDir?: Blob | undefined;
  migrationsFolder: string;
  poolSize?: number;
  /**
   * An idle PostgreSQL connection failed (the server restarted, or ended it): the pool drops it
   * and opens another when needed. Without a listener the pool's error would end the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    pool.on('error', options.onIdleConnectionError ?? ((error) => console.warn(`PostgreSQL connection lost: ${error.message}`)));
    const db = drizzlePg(pool, { schema });
    // Several API processes may start at once; an advisory lock lets one migrate at a time.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(727401)');
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: options.migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727401)').catch(() => undefined);
      client.release();
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  // One process per folder (data-dir-lock.ts): a second one is refused before it opens anything.
  const release = options.dataDir ? await lockDataDir(options.dataDir) : async () => undefined;
  try {
    const client = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: options.migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      close: async () => {
        await client.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Whether any user exists: a database without users is empty (and may get the demo seed). */
export async function hasUsers(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`select exists (select 1 from ${schema.users}) as found`)) as unknown as {
    rows: { found: boolean }[];
  };
  return result.rows[0]?.found === true;
}
