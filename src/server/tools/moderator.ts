/**
 * `npm run moderator -- add|remove|list [<phone or uid>]`: who may moderate (the moderators
 * table). The one way to make a moderator: no API call can. It opens the database the server
 * would open: PostgreSQL at DATABASE_URL (beside running servers), or the PGlite folder in
 * DATA_DIR, which only one process may have open (stop the server first; it says so).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { loadConfigOrExit } from '../boot.ts';
import { openDatabase, type Db } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { moderators, users } from '../db/schema.ts';
import { isMain, runTool, ToolError } from './cli.ts';

const USAGE =
  'usage: npm run moderator -- add <phone or uid> | remove <phone or uid> | list   (DATABASE_URL or DATA_DIR names the database)';

export interface ModeratorUser {
  id: number;
  nick: string;
  /** Masked: 138****0000. */
  phone: string;
}

const masked = (cellphone: string | null) => (cellphone && cellphone.length >= 11 ? `${cellphone.slice(0, 3)}****${cellphone.slice(-4)}` : '-');

/** The user a phone number (11 digits from 1) or a uid names; a ToolError when none does. */
export async function findUser(db: Db, who: string): Promise<ModeratorUser> {
  const value = who.trim();
  const byPhone = /^1\d{10}$/.test(value);
  if (!byPhone && !/^\d{1,10}$/.test(value)) throw new ToolError(`"${who}" is neither a phone number (11 digits) nor a uid`);
  const [user] = await db
    .select({ id: users.id, nick: users.nick, cellphone: users.cellphone })
    .from(users)
    .where(byPhone ? eq(users.cellphone, value) : eq(users.id, Number(value)))
    .limit(1);
  if (!user) throw new ToolError(`no user with ${byPhone ? 'phone' : 'uid'} ${value}${byPhone ? ' (the user logs in once first)' : ''}`);
  return { id: user.id, nick: user.nick, phone: masked(user.cellphone) };
}

/** Makes the user a moderator; false when they were one already. */
export async function addModerator(db: Db, who: string): Promise<{ user: ModeratorUser; changed: boolean }> {
  const user = await findUser(db, who);
  const added = await db.insert(moderators).values({ userId: user.id }).onConflictDoNothing().returning({ userId: moderators.userId });
  return { user, changed: added.length > 0 };
}

/** Takes the role away; false when they had none. Their past actions stay in the audit log. */
export async function removeModerator(db: Db, who: string): Promise<{ user: ModeratorUser; changed: boolean }> {
  const user = await findUser(db, who);
  const removed = await db.delete(moderators).where(eq(moderators.userId, user.id)).returning({ userId: moderators.userId });
  return { user, changed: removed.length > 0 };
}

/** Every moderator, earliest first. */
export async function listModerators(db: Db): Promise<(ModeratorUser & { addedAt: Date })[]> {
  const rows = await db
    .select({ id: users.id, nick: users.nick, cellphone: users.cellphone, addedAt: moderators.addedAt })
    .from(moderators)
    .innerJoin(users, eq(users.id, moderators.userId))
    .orderBy(asc(moderators.addedAt), asc(users.id));
  return rows.map((row) => ({ id: row.id, nick: row.nick, phone: masked(row.cellphone), addedAt: row.addedAt }));
}

const named = (user: ModeratorUser) => `${user.nick} (uid ${user.id}, ${user.phone})`;

/** Runs one command of the tool on `db`; answers what to print. */
export async function runModeratorCommand(db: Db, args: string[]): Promise<string> {
  const [command, who, ...extra] = args;
  if (extra.length > 0) throw new ToolError(USAGE);
  switch (command) {
    case 'add': {
      if (!who) throw new ToolError(USAGE);
      const { user, changed } = await addModerator(db, who);
      return changed ? `${named(user)} is now a moderator` : `${named(user)} was a moderator already`;
    }
    case 'remove': {
      if (!who) throw new ToolError(USAGE);
      const { user, changed } = await removeModerator(db, who);
      return changed ? `${named(user)} is no longer a moderator` : `${named(user)} was not a moderator`;
    }
    case 'list': {
      if (who) throw new ToolError(USAGE);
      const list = await listModerators(db);
      if (list.length === 0) return 'no moderators';
      return list.map((user) => `${named(user)} since ${user.addedAt.toISOString()}`).join('\n');
    }
    default:
      throw new ToolError(USAGE);
  }
}

if (isMain(import.meta.url)) {
  await runTool(async () => {
    const args = process.argv.slice(2);
    if (!['add', 'remove', 'list'].includes(args[0] ?? '')) throw new ToolError(USAGE);
    const config = loadConfigOrExit();
    if (!config.databaseUrl && !existsSync(join(config.dataDir, 'PG_VERSION'))) {
      throw new ToolError(`${config.dataDir} holds no PGlite database (no PG_VERSION): start the server once first, or set DATABASE_URL`);
    }
    let database;
    try {
      database = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.databaseUrl ? undefined : config.dataDir,
        migrationsFolder: config.migrationsFolder,
        poolSize: 1,
      });
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      const { pid, host } = error.owner;
      throw new ToolError(
        `the server (pid ${pid} on ${host}) has ${config.dataDir} open, and a PGlite folder serves one process: stop it, run this again, then start it`,
      );
    }
    try {
      process.stdout.write(`${await runModeratorCommand(database.db, args)}\n`);
    } finally {
      await database.close();
    }
  });
}
