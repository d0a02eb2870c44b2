/**
 * globalSetup of the `api` project: builds one migrated and seeded PGlite data folder per run,
 * dumps it (gzip tarball) to a temp file and provides its path; openTestDatabase() in
 * tests/support/db.ts loads it per test file in about a second. It also starts one PostgreSQL
 * server for the run with a migrated and seeded template database; openPostgresTestDatabase()
 * copies the template per test file (CREATE DATABASE ... TEMPLATE), and the server stops at the end.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema.ts';
import { seedDemoData } from '../../src/server/db/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the seeded PGlite template (dumpDataDir, gzip). */
    pgliteTemplatePath: string;
    /** postgres:// URL of the run's PostgreSQL server, which holds the seeded template database. */
    postgresServerUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'pglite-template-'));
  const path = join(dir, 'template.tar.gz');
  // Built here rather than through tests/support/db.ts, which imports vitest's worker API.
  const client = await PGlite.create();
  try {
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: loadConfig().migrationsFolder });
    await seedDemoData(db as unknown as Db);
    const blob = await client.dumpDataDir('gzip');
    await writeFile(path, new Uint8Array(await blob.arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide('pgliteTemplatePath', path);
  // Loaded here, not at the top: db.ts imports vitest's worker API, which only its functions use.
  const { buildPostgresTemplate, startPostgres } = await import('./db.ts');
  const server = await startPostgres();
  try {
    await buildPostgresTemplate(server.url);
  } catch (err) {
    await server.stop();
    throw err;
  }
  project.provide('postgresServerUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
