/**
 * `npm run backup -- <file>`: the PGlite community in DATA_DIR written to one gzip tarball
 * (PGlite's dumpDataDir), which `npm run restore` opens again.
 *
 * The server must be stopped first. PGlite is PostgreSQL inside one process and keeps pages in
 * that process's memory; the folder is locked to it (db/data-dir-lock.ts), so no other process
 * can read it consistently while it runs, and copying its files would catch half-written pages.
 * Taking the lock here is what makes the copy consistent: nothing writes while it is made. A
 * backup of a community that must not stop is PostgreSQL's job (pg_dump; see the README).
 */
import { writeFile, rename } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { loadConfigOrExit } from '../boot.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { isMain, runTool, ToolError } from './cli.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the folder's database to `file` (gzip tarball); refuses while a server has the folder. */
export async function backupDataDir(dataDir: string, file: string): Promise<void> {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new ToolError(`${dataDir} holds no PGlite database (no PG_VERSION): nothing to back up`);
  const release = await lockDataDir(dataDir);
  try {
    const client = await PGlite.create({ dataDir });
    try {
      // Everything in the write-ahead log written into the tables first, so the tarball opens without replay.
      await client.query('checkpoint');
      const tarball = await client.dumpDataDir('gzip');
      // Written beside the target and renamed into place: a failed backup never leaves half a file under the name.
      const staged = `${file}.partial`;
      await writeFile(staged, Buffer.from(await tarball.arrayBuffer()));
      await rename(staged, file);
    } finally {
      await client.close();
    }
  } finally {
    await release();
  }
}

if (isMain(import.meta.url)) {
  await runTool(async () => {
    const file = process.argv[2];
    if (!file) throw new ToolError('usage: npm run backup -- <file.tar.gz>   (stop the server first; DATA_DIR names the folder)');
    const config = loadConfigOrExit();
    if (config.databaseUrl) throw new ToolError('DATABASE_URL is set: back up PostgreSQL with pg_dump (see the README)');
    await backupDataDir(config.dataDir, file);
    process.stdout.write(`backed up ${config.dataDir} to ${file}\n`);
  });
}
