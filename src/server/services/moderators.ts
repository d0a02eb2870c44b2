/**
 * Who may moderate (the moderators table): the operator's commands behind `npm run moderator`
 * (src/server/tools/moderator.ts), run by the tool on the database it opens, or by the server
 * that has a PGlite folder open, asked over its admin socket (db/backup-socket.ts). No API call
 * changes the table.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { moderators, users } from '../db/schema.ts';

export const MODERATOR_USAGE =
  'usage: npm run moderator -- add <phone or uid> | remove <phone or uid> | list   (DATABASE_URL or DATA_DIR names the database)';

/** A mistake in the operator's command (a wrong argument, an unknown user): told as one line. */
export class ModeratorCommandError extends Error {
  override name = 'ModeratorCommandError';
}

export interface ModeratorUser {
  id: number;
  nick: string;
  /** Masked: 138****0000. */
  phone: string;
}

const masked = (cellphone: string | null) => (cellphone && cellphone.length >= 11 ? `${cellphone.slice(0, 3)}****${cellphone.slice(-4)}` : '-');

/** The user a phone number (11 digits from 1) or a uid names. */
export async function findUser(db: Db, who: string): Promise<ModeratorUser> {
  const value = who.trim();
  const byPhone = /^1\d{10}$/.test(value);
  if (!byPhone && !/^\d{1,10}$/.test(value)) throw new ModeratorCommandError(`"${who}" is neither a phone number (11 digits) nor a uid`);
  const [user] = await db
    .select({ id: users.id, nick: users.nick, cellphone: users.cellphone })
    .from(users)
    .where(byPhone ? eq(users.cellphone, value) : eq(users.id, Number(value)))
    .limit(1);
  if (!user) throw new ModeratorCommandError(`no user with ${byPhone ? 'phone' : 'uid'} ${value}${byPhone ? ' (the user logs in once first)' : ''}`);
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

/** Whether `args` are a command of the tool (add or remove with one user, or list), before anything is opened. */
export function isModeratorCommand(args: readonly string[]): boolean {
  const [command, who, ...extra] = args;
  if (extra.length > 0) return false;
  return command === 'list' ? who === undefined : (command === 'add' || command === 'remove') && who !== undefined && who !== '';
}

const named = (user: ModeratorUser) => `${user.nick} (uid ${user.id}, ${user.phone})`;

/** Runs one command of the tool on `db`; answers what to print. */
export async function runModeratorCommand(db: Db, args: readonly string[]): Promise<string> {
  if (!isModeratorCommand(args)) throw new ModeratorCommandError(MODERATOR_USAGE);
  const [command, who] = args as [string, string];
  if (command === 'add') {
    const { user, changed } = await addModerator(db, who);
    return changed ? `${named(user)} is now a moderator` : `${named(user)} was a moderator already`;
  }
  if (command === 'remove') {
    const { user, changed } = await removeModerator(db, who);
    return changed ? `${named(user)} is no longer a moderator` : `${named(user)} was not a moderator`;
  }
  const list = await listModerators(db);
  if (list.length === 0) return 'no moderators';
  return list.map((user) => `${named(user)} since ${user.addedAt.toISOString()}`).join('\n');
}
