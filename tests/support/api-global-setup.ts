/**
 * globalSetup of the `api` project: builds one migrated and seeded PGlite data folder per run,
 * dumps it (gzip tarball) to a temp file and provides its path; openTestDatabase() in
 * tests/support/db.ts loads it per test file, far quicker than building it. It also starts one PostgreSQL
 * server for the run with a migrated and seeded template database; openPostgresTestDatabase()
 * copies the template per test file (CREATE DATABASE ... TEMPLATE), and the server stops at the end.
 * The two are made side by side.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

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
  // Loaded here, not at the top: db.ts imports vitest's worker API, which only its functions use.
  const { buildPgliteTemplate, buildPostgresTemplate, startPostgres } = await import('./db.ts');
  // Side by side: the PostgreSQL server works in processes of its own while PGlite works in this one.
  const [pglite, postgres] = await Promise.allSettled([
    buildPgliteTemplate().then(async (blob) => writeFile(path, new Uint8Array(await blob.arrayBuffer()))),
    (async () => {
      const server = await startPostgres();
      try {
        await buildPostgresTemplate(server.url);
      } catch (err) {
        await server.stop();
        throw err;
      }
      return server;
    })(),
  ]);
  if (pglite.status === 'rejected' || postgres.status === 'rejected') {
    if (postgres.status === 'fulfilled') await postgres.value.stop();
    await rm(dir, { recursive: true, force: true });
    throw pglite.status === 'rejected' ? pglite.reason : (postgres as PromiseRejectedResult).reason;
  }
  const server = postgres.value;
  project.provide('pgliteTemplatePath', path);
  project.provide('postgresServerUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
