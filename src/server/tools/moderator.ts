/**
 * `npm run moderator -- add|remove|list [<phone or uid>]`: who may moderate (the moderators
 * table, services/moderators.ts). The one way to make a moderator: no API call can. It opens the
 * database the server would open: PostgreSQL at DATABASE_URL (beside running servers), or the
 * PGlite folder in DATA_DIR; while a server has that folder open (one process per folder), the
 * server runs the command, asked over <DATA_DIR>.admin.sock as `npm run backup` asks it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigOrExit } from '../boot.ts';
import { requestModeratorCommand } from '../db/backup-socket.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { isModeratorCommand, MODERATOR_USAGE, ModeratorCommandError, runModeratorCommand } from '../services/moderators.ts';
import { isMain, runTool, ToolError } from './cli.ts';

/** Runs the command where the database is: here, or in the server that has the PGlite folder open. */
export async function moderatorTool(args: string[], database: { databaseUrl: string | undefined; dataDir: string; migrationsFolder: string }): Promise<string> {
  if (!isModeratorCommand(args)) throw new ToolError(MODERATOR_USAGE);
  if (!database.databaseUrl && !existsSync(join(database.dataDir, 'PG_VERSION'))) {
    throw new ToolError(`${database.dataDir} holds no PGlite database (no PG_VERSION): start the server once first, or set DATABASE_URL`);
  }
  let opened;
  try {
    opened = await openDatabase({
      databaseUrl: database.databaseUrl,
      dataDir: database.databaseUrl ? undefined : database.dataDir,
      migrationsFolder: database.migrationsFolder,
      poolSize: 1,
    });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const { pid, host } = error.owner;
    let answer: { ok: boolean; text: string };
    try {
      answer = await requestModeratorCommand(database.dataDir, args);
    } catch (cause) {
      throw new ToolError(
        `the server holding ${database.dataDir} (pid ${pid} on ${host}) did not answer: ${(cause as Error).message}; stop it, run this again, then start it`,
      );
    }
    if (!answer.ok) throw new ToolError(answer.text);
    return answer.text;
  }
  try {
    return await runModeratorCommand(opened.db, args);
  } catch (error) {
    if (error instanceof ModeratorCommandError) throw new ToolError(error.message);
    throw error;
  } finally {
    await opened.close();
  }
}

if (isMain(import.meta.url)) {
  await runTool(async () => {
    const config = loadConfigOrExit();
    process.stdout.write(`${await moderatorTool(process.argv.slice(2), config)}\n`);
  });
}
