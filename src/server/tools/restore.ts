/**
 * `npm run restore -- <file> [--force]`: a tarball made by `npm run backup` opened into DATA_DIR.
 * Refuses a folder a server has open (its lock), and a folder that already holds anything unless
 * --force says to replace it: a restore must never quietly overwrite a community.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfigOrExit } from '../boot.ts';
import { LOCK_FILE, lockDataDir } from '../db/data-dir-lock.ts';
import { isMain, runTool, ToolError } from './cli.ts';

export interface RestoreOptions {
  /** Replace what the folder holds. */
  force?: boolean;
}

/** Opens the tarball `file` into `dataDir`. */
export async function restoreDataDir(file: string, dataDir: string, options: RestoreOptions = {}): Promise<void> {
  let tarball: Buffer;
  try {
    tarball = await readFile(file);
  } catch (error) {
    throw new ToolError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const release = await lockDataDir(dataDir);
  try {
    const present = (await readdir(dataDir)).filter((name) => !name.startsWith(LOCK_FILE));
    if (present.length > 0) {
      if (!options.force) throw new ToolError(`${dataDir} is not empty (${present.length} entries): restore into an empty folder, or add --force to replace it`);
      for (const name of present) await rm(join(dataDir, name), { recursive: true, force: true });
    }
    let client: PGlite;
    try {
      client = await PGlite.create({ dataDir, loadDataDir: new Blob([tarball], { type: 'application/x-gzip' }) });
    } catch (error) {
      throw new ToolError(`${file} is not a PGlite backup: ${(error as Error).message}`);
    }
    try {
      await client.query('select 1');
    } finally {
      await client.close();
    }
    // The tarball carries the lock of the process that made it; this folder is not its.
    await rm(join(dataDir, LOCK_FILE), { force: true });
  } finally {
    await release();
  }
}

if (isMain(import.meta.url)) {
  await runTool(async () => {
    const args = process.argv.slice(2);
    const force = args.includes('--force');
    const [file, ...extra] = args.filter((arg) => arg !== '--force');
    if (!file || extra.length > 0) throw new ToolError('usage: npm run restore -- <file.tar.gz> [--force]   (DATA_DIR names the folder)');
    const config = loadConfigOrExit();
    if (config.databaseUrl) throw new ToolError('DATABASE_URL is set: restore PostgreSQL with pg_restore (see the README)');
    await restoreDataDir(file, config.dataDir, { force });
    process.stdout.write(`restored ${file} into ${config.dataDir}\n`);
  });
}
