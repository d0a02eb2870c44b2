/** Users as others see them: briefs for lists (with whether the viewer follows them) and profiles; their nicknames. */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { ErrorCode } from '#shared/errors.ts';
import type { UserBrief, UserInfo } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { userFollows, users } from '../db/schema.ts';
import { BusinessError, notFound } from '../errors.ts';
import { counter, toggleEdge } from './edges.ts';
import { joinNoticeGroup, leaveNoticeGroup } from './notices.ts';
import { hitDailyCap } from './limits/daily-caps.ts';

export type UserRef = { visit_user_id: number } | { visit_ucode: string };

export async function userBriefs(db: Db, ids: number[], viewerId: number | null): Promise<Map<number, UserBrief>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  // One query after the other: `db` may be a transaction, whose one connection runs one query at a time.
  const rows = await db
    .select({ id: users.id, ucode: users.ucode, nick: users.nick, avatar: users.avatar })
    .from(users)
    .where(inArray(users.id, unique));
  const followed = await followedAmong(db, viewerId, unique);
  return new Map(
    rows.map((row) => [
      row.id,
      { uid: row.id, ucode: row.ucode, nick: row.nick, avatar: row.avatar, is_follow: followed.has(row.id) },
    ]),
  );
}

async function followedAmong(db: Db, viewerId: number | null, ids: number[]): Promise<Set<number>> {
  if (viewerId === null) return new Set();
  const rows = await db
    .select({ id: userFollows.followeeId })
    .from(userFollows)
    .where(and(eq(userFollows.followerId, viewerId), inArray(userFollows.followeeId, ids)));
  return new Set(rows.map((row) => row.id));
}

export async function resolveUserId(db: Db, ref: UserRef): Promise<number> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where('visit_user_id' in ref ? eq(users.id, ref.visit_user_id) : eq(users.ucode, ref.visit_ucode))
    .limit(1);
  if (!row) throw notFound('用户');
  return row.id;
}

export async function getUserInfo(db: Db, ref: UserRef, viewerId: number | null): Promise<UserInfo> {
  const [row] = await db
    .select()
    .from(users)
    .where('visit_user_id' in ref ? eq(users.id, ref.visit_user_id) : eq(users.ucode, ref.visit_ucode))
    .limit(1);
  if (!row) throw notFound('用户');
  const followed = await followedAmong(db, viewerId, [row.id]);
  return {
    uid: row.id,
    ucode: row.ucode,
    nick: row.nick,
    avatar: row.avatar,
    intro: row.intro,
    is_follow: followed.has(row.id),
    is_self: viewerId === row.id,
    follower_count: row.followerCount,
    following_count: row.followingCount,
    post_count: row.postCount,
    like_count: row.likeCount,
  };
}

/** Following more users than this answers -5007. */
export const FOLLOWING_LIMIT = 2000;

/** Follow or unfollow a user, in the caller's transaction; repeating either is harmless. */
export async function setUserFollow(tx: Db, followerId: number, followeeId: number, follow: boolean): Promise<boolean> {
  if (followerId === followeeId) throw new BusinessError(ErrorCode.BadRequest, '不能关注自己');
  await resolveUserId(tx, { visit_user_id: followeeId });
  if (follow) {
    const [me] = await tx.select({ following: users.followingCount }).from(users).where(eq(users.id, followerId));
    if ((me?.following ?? 0) >= FOLLOWING_LIMIT) throw new BusinessError(ErrorCode.FollowLimit);
  }
  const changed = await toggleEdge(tx, {
    table: userFollows,
    key: { followerId, followeeId },
    on: follow,
    counters: [counter(users.followingCount, followerId), counter(users.followerCount, followeeId)],
  });
  if (changed) {
    const key = { type: 'follow', recipientId: followeeId, postId: 0, commentId: 0 } as const;
    await (follow ? joinNoticeGroup(tx, key, followerId) : leaveNoticeGroup(tx, key, followerId));
  }
  return follow;
}

/** Whether the user is a university user (the university service's check_user). */
export async function isUniversityUser(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ isUniversity: users.isUniversity }).from(users).where(eq(users.id, userId));
  return row?.isUniversity ?? false;
}

/** Another user has this nickname (whatever its case). */
const nickTaken = () => new BusinessError(ErrorCode.BadRequest, '该昵称已被使用，请换一个');

/** Whether `error`, or what it wraps, is PostgreSQL's unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * Sets the user's nickname (already checked by its schema), in the caller's transaction:
 * another user's, whatever its case, is -1004; the same one again changes and counts nothing;
 * a change counts against the daily cap. The unique index settles two users asking for one
 * nickname at once.
 */
export async function setNick(tx: Db, userId: number, nick: string, dailyLimit: number): Promise<{ nick: string }> {
  const [me] = await tx.select({ nick: users.nick }).from(users).where(eq(users.id, userId)).for('update');
  if (!me) throw notFound('用户');
  if (me.nick === nick) return { nick };
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.nick}) = lower(${nick})`, ne(users.id, userId)))
    .limit(1);
  if (taken) throw nickTaken();
  await hitDailyCap(tx, 'nick', userId, dailyLimit);
  try {
    await tx.update(users).set({ nick }).where(eq(users.id, userId));
  } catch (error) {
    if (isUniqueViolation(error)) throw nickTaken();
    throw error;
  }
  return { nick };
}

/**
 * A new user's nickname: 极客 and six random letters and digits, nothing of the phone number
 * (a nickname is public). `taken` says whether one is in use; a few draws always find one free.
 */
export async function newDefaultNick(taken: (nick: string) => Promise<boolean>): Promise<string> {
  for (;;) {
    const nick = `极客${randomBytes(6).toString('base64url').replace(/[-_]/g, '').slice(0, 6).toLowerCase()}`;
    if (nick.length === 8 && !(await taken(nick))) return nick;
  }
}

/** Whether any user has `nick`, whatever its case. */
export async function nickInUse(db: Db, nick: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.nick}) = lower(${nick})`).limit(1);
  return row !== undefined;
}
