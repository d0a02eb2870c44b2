/**
 * `npm run backup -- <file>`: the PGlite community in DATA_DIR written to one gzip tarball
 * (PGlite's dumpDataDir), which `npm run restore` opens again.
 *
 * PGlite is PostgreSQL inside one process and keeps pages in that process's memory; the folder
 * is locked to it (db/data-dir-lock.ts), and copying its files would catch half-written pages.
 * So while a server has the folder, the server makes the dump between two of its queries and
 * sends it over <DATA_DIR>.admin.sock (db/backup-socket.ts); with no server, the tool takes the
 * lock and opens the folder itself, so nothing writes while the copy is made.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { loadConfigOrExit } from '../boot.ts';
import { requestBackup } from '../db/backup-socket.ts';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock.ts';
import { isMain, runTool, ToolError } from './cli.ts';

/** Writes the folder's database to `file` (gzip tarball), asking the server that has it open if one does. */
export async function backupDataDir(dataDir: string, file: string): Promise<void> {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new ToolError(`${dataDir} holds no PGlite database (no PG_VERSION): nothing to back up`);
  // Written beside the target and renamed into place: a failed backup never leaves half a file under the name.
  const staged = `${file}.partial`;
  let release: () => Promise<void>;
  try {
    release = await lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const { pid, host } = error.owner;
    try {
      await pipeline(await requestBackup(dataDir), createWriteStream(staged));
    } catch (cause) {
      await unlink(staged).catch(() => undefined);
      throw new ToolError(`the server holding ${dataDir} (pid ${pid} on ${host}) did not answer the backup: ${(cause as Error).message}`);
    }
    await rename(staged, file);
    return;
  }
  try {
    const client = await PGlite.create({ dataDir });
    try {
      // Everything in the write-ahead log written into the tables first, so the tarball opens without replay.
      await client.query('checkpoint');
      const tarball = await client.dumpDataDir('gzip');
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
    if (!file) throw new ToolError('usage: npm run backup -- <file.tar.gz>   (DATA_DIR names the folder; a running server makes the dump)');
    const config = loadConfigOrExit();
    if (config.databaseUrl) throw new ToolError('DATABASE_URL is set: back up PostgreSQL with pg_dump (see the README)');
    await backupDataDir(config.dataDir, file);
    process.stdout.write(`backed up ${config.dataDir} to ${file}\n`);
  });
}
