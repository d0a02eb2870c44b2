/**
 * Moderation: moderators (the moderators table, set by the operator's `npm run moderator`, never
 * through the API) work through the review queue of open complaints, and hide, restore or
 * dismiss reported posts and comments, or suspend users (禁言) and lift it.
 *
 * - A hidden post or comment leaves every list, count and search for everyone but its author,
 *   who reads it with the reason (services/posts.ts, comments.ts). Hiding takes it out of the
 *   counts (its channels', topics' and author's post counts; a comment from its post's comment
 *   count and its root's reply count), restoring puts it back, both in the action's transaction.
 * - AUTO_HIDE_COMPLAINTS distinct users' open complaints hide a post or comment at once, pending
 *   review (hidden_by null: autoHideIfReported, from complain/add's transaction). A moderator's
 *   restore clears it for good (cleared_at): later complaints queue it without hiding it again.
 *   A dismiss undoes an automatic hide; a moderator's hide stays.
 * - A suspended user reads as before, and every write answers -1014 until then (services/once.ts).
 * - Every action closes the target's open complaints with its outcome and writes one row of the
 *   audit log (moderation_actions), which no call changes: a trigger refuses UPDATE and DELETE.
 * - Notices (services/notices.ts, no moderator named): the author of hidden content with the
 *   reason (and when it shows again), a suspended user with its end, each complainant with what
 *   became of their complaint.
 *
 * Locks follow the writes they meet: a post's row before its channels, topics and author (as
 * post/add and post/delete), a comment's post before the comment (as every comment write).
 */
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import {
  AUTO_HIDE_REASON,
  COMPLAIN_REASONS,
  DEFAULT_PAGE_SIZE,
  type ModerationAction,
  type ModerationOutcome,
  type SUSPENSION_DAYS,
} from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import type {
  ModerationLogEntry,
  ModerationQueueItem,
  ModerationResult,
  Paged,
  SuspensionResult,
  UserBrief,
} from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { comments, complaints, moderationActions, moderators, posts, users } from '../db/schema.ts';
import { BusinessError, chinaMinute, notFound } from '../errors.ts';
import type { KeysetRequest } from './paging.ts';
import { commentPreviewChanged, sendModerationNotices, type ModerationNotice } from './notices.ts';
import { getModeratedPost, movePostPlaceCounts } from './posts.ts';
import { userBriefs } from './users.ts';

export const NOT_MODERATOR_MESSAGE = '仅管理员可以进行此操作';
export const OWN_TARGET_MESSAGE = '不能处理自己的内容或账号';
export const MODERATOR_TARGET_MESSAGE = '不能禁言其他管理员';

const DAY_MS = 86_400_000;
/** What a queue item shows of its author's history, and of its complaints' words. */
const RECENT_POSTS = 5;
const RECENT_ACTIONS = 10;
const COMPLAINTS_SHOWN = 50;
/** The start of each recent post a queue item shows, in characters. */
const RECENT_POST_CHARS = 200;

export type ModeratedType = 'post' | 'comment' | 'user';
export type ContentType = 'post' | 'comment';
export type SuspensionDays = (typeof SUSPENSION_DAYS)[number] | 'forever';

const forbidden = (message: string) => new BusinessError(ErrorCode.Forbidden, message);

export async function isModerator(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ userId: moderators.userId }).from(moderators).where(eq(moderators.userId, userId)).limit(1);
  return row !== undefined;
}

/** -1006 for anyone who is not a moderator: the first check of every moderation call. */
export async function requireModerator(db: Db, userId: number): Promise<void> {
  if (!(await isModerator(db, userId))) throw forbidden(NOT_MODERATOR_MESSAGE);
}

// ---- the target's row, locked ----

interface LockedContent {
  type: ContentType;
  id: number;
  authorId: number;
  postId: number;
  /** A reply's top-level comment; null for a post or a top-level comment. */
  rootId: number | null;
  hidden: boolean;
  /** Hidden automatically, pending review. */
  autoHidden: boolean;
  cleared: boolean;
}

/** A live post or comment, locked for the action (a comment's post first); -1005 when missing or deleted. */
async function lockContent(tx: Db, type: ContentType, id: number): Promise<LockedContent> {
  if (type === 'post') {
    const [post] = await tx
      .select({ authorId: posts.userId, hiddenAt: posts.hiddenAt, hiddenBy: posts.hiddenBy, clearedAt: posts.clearedAt })
      .from(posts)
      .where(and(eq(posts.id, id), isNull(posts.deletedAt)))
      .for('update');
    if (!post) throw notFound('动态');
    return {
      type,
      id,
      authorId: post.authorId,
      postId: id,
      rootId: null,
      hidden: post.hiddenAt !== null,
      autoHidden: post.hiddenAt !== null && post.hiddenBy === null,
      cleared: post.clearedAt !== null,
    };
  }
  const [found] = await tx.select({ postId: comments.postId }).from(comments).where(eq(comments.id, id));
  if (!found) throw notFound('评论');
  const [post] = await tx
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, found.postId), isNull(posts.deletedAt)))
    .for('update');
  const [comment] = post
    ? await tx
        .select({
          authorId: comments.userId,
          rootId: comments.rootId,
          hiddenAt: comments.hiddenAt,
          hiddenBy: comments.hiddenBy,
          clearedAt: comments.clearedAt,
        })
        .from(comments)
        .where(and(eq(comments.id, id), isNull(comments.deletedAt)))
        .for('update')
    : [];
  if (!comment) throw notFound('评论');
  return {
    type,
    id,
    authorId: comment.authorId,
    postId: found.postId,
    rootId: comment.rootId,
    hidden: comment.hiddenAt !== null,
    autoHidden: comment.hiddenAt !== null && comment.hiddenBy === null,
    cleared: comment.clearedAt !== null,
  };
}

/** The counts a visible post or comment is in, moved by `step` (-1 as it is hidden, +1 as it is shown again). */
async function moveCounts(tx: Db, content: LockedContent, step: 1 | -1): Promise<void> {
  if (content.type === 'post') {
    await movePostPlaceCounts(tx, content.id, step);
    await tx
      .update(users)
      .set({ postCount: sql`${users.postCount} + ${step}` })
      .where(eq(users.id, content.authorId));
    return;
  }
  await tx
    .update(posts)
    .set({ commentCount: sql`${posts.commentCount} + ${step}` })
    .where(eq(posts.id, content.postId));
  if (content.rootId !== null) {
    await tx
      .update(comments)
      .set({ replyCount: sql`${comments.replyCount} + ${step}` })
      .where(eq(comments.id, content.rootId));
  }
}

/** Hides the locked content with `reason`, by a moderator or (null) automatically; out of the counts the first time. */
async function hide(tx: Db, content: LockedContent, by: number | null, reason: string): Promise<void> {
  const table = content.type === 'post' ? posts : comments;
  await tx
    .update(table)
    .set({ hiddenAt: content.hidden ? undefined : sql`now()`, hiddenReason: reason, hiddenBy: by })
    .where(eq(table.id, content.id));
  if (!content.hidden) await moveCounts(tx, content, -1);
  if (content.type === 'comment' && !content.hidden) await commentPreviewChanged(tx, content.id, 'hidden');
}

/** Shows the locked content again (back in the counts); `clear`: for good, later complaints no longer hide it. */
async function show(tx: Db, content: LockedContent, clear: boolean): Promise<void> {
  const table = content.type === 'post' ? posts : comments;
  await tx
    .update(table)
    .set({ hiddenAt: null, hiddenReason: null, hiddenBy: null, ...(clear ? { clearedAt: sql`now()` } : {}) })
    .where(eq(table.id, content.id));
  if (content.hidden) await moveCounts(tx, content, 1);
  if (content.type === 'comment' && content.hidden) await commentPreviewChanged(tx, content.id, 'shown');
}

/** Closes the target's open complaints with the action's outcome; answers who had filed them. */
async function closeComplaints(tx: Db, type: ModeratedType, id: number, outcome: ModerationOutcome): Promise<number[]> {
  const closed = await tx
    .update(complaints)
    .set({ closedAt: sql`now()`, outcome })
    .where(and(eq(complaints.targetType, type), eq(complaints.targetId, id), isNull(complaints.closedAt)))
    .returning({ userId: complaints.userId });
  return closed.map((row) => row.userId);
}

const KIND: Record<ModeratedType, string> = { post: '动态', comment: '评论', user: '用户' };

/** What a moderation notice is about: the post, the comment (of its post), or the user. */
function noticeSubject(type: ModeratedType, id: number, postId: number): Pick<ModerationNotice, 'postId' | 'commentId' | 'targetUserId'> {
  if (type === 'post') return { postId: id };
  if (type === 'comment') return { postId, commentId: id };
  return { targetUserId: id };
}

/** The complainants told what became of their complaints (no moderator named). */
function complainantNotices(complainants: number[], type: ModeratedType, id: number, postId: number, outcome: ModerationOutcome): ModerationNotice[] {
  const message =
    outcome === 'hidden' || outcome === 'suspended'
      ? `你举报的${KIND[type]}已被${outcome === 'hidden' ? '隐藏' : '禁言'}，感谢你的反馈`
      : `你举报的${KIND[type]}经审核未发现违规，感谢你的反馈`;
  return complainants.map((recipientId) => ({ recipientId, message, ...noticeSubject(type, id, postId) }));
}

interface ActionRow {
  moderatorId: number | null;
  action: ModerationAction;
  targetType: ModeratedType;
  targetId: number;
  targetUserId: number;
  reason: string;
  /** A suspension's end: a time, or 'infinity' for good. */
  until?: Date | 'infinity';
}

/** One row of the audit log; answers its id. */
async function recordAction(tx: Db, row: ActionRow): Promise<number> {
  const { until, ...rest } = row;
  const [made] = await tx
    .insert(moderationActions)
    .values({ ...rest, until: until === 'infinity' ? sql`'infinity'::timestamptz` : until })
    .returning({ id: moderationActions.id });
  if (!made) throw new Error('moderation action insert answered nothing');
  return made.id;
}

// ---- actions on posts and comments ----

export interface ContentActionInput {
  target_type: ContentType;
  target_id: number;
  reason: string;
}

/** The locked content a moderator may act on: not their own (-1006). */
async function contentToModerate(tx: Db, moderatorId: number, type: ContentType, id: number): Promise<LockedContent> {
  const content = await lockContent(tx, type, id);
  if (content.authorId === moderatorId) throw forbidden(OWN_TARGET_MESSAGE);
  return content;
}

/** The author's notice that their post or comment shows again. */
const shownAgainNotice = (content: LockedContent): ModerationNotice => ({
  recipientId: content.authorId,
  message: `你的${KIND[content.type]}经审核已恢复显示`,
  ...noticeSubject(content.type, content.id, content.postId),
});

/** Hides a post or comment from everyone but its author (an automatic hide it confirms keeps its time). */
export async function hideContent(tx: Db, moderatorId: number, input: ContentActionInput): Promise<ModerationResult> {
  await requireModerator(tx, moderatorId);
  const content = await contentToModerate(tx, moderatorId, input.target_type, input.target_id);
  await hide(tx, content, moderatorId, input.reason);
  const closed = await closeComplaints(tx, input.target_type, input.target_id, 'hidden');
  const actionId = await recordAction(tx, {
    moderatorId,
    action: 'hide',
    targetType: input.target_type,
    targetId: input.target_id,
    targetUserId: content.authorId,
    reason: input.reason,
  });
  await sendModerationNotices(tx, [
    { recipientId: content.authorId, message: `你的${KIND[content.type]}已被隐藏，理由：${input.reason}`, ...noticeSubject(content.type, content.id, content.postId) },
    ...complainantNotices(closed, content.type, content.id, content.postId, 'hidden'),
  ]);
  return { action_id: actionId, target_type: input.target_type, target_id: input.target_id, closed_complaints: closed.length, hidden: true };
}

/** Shows a post or comment again, for good: later complaints queue it without hiding it automatically. */
export async function restoreContent(tx: Db, moderatorId: number, input: ContentActionInput): Promise<ModerationResult> {
  await requireModerator(tx, moderatorId);
  const content = await contentToModerate(tx, moderatorId, input.target_type, input.target_id);
  await show(tx, content, true);
  const closed = await closeComplaints(tx, input.target_type, input.target_id, 'restored');
  const actionId = await recordAction(tx, {
    moderatorId,
    action: 'restore',
    targetType: input.target_type,
    targetId: input.target_id,
    targetUserId: content.authorId,
    reason: input.reason,
  });
  await sendModerationNotices(tx, [
    ...(content.hidden ? [shownAgainNotice(content)] : []),
    ...complainantNotices(closed, content.type, content.id, content.postId, 'restored'),
  ]);
  return { action_id: actionId, target_type: input.target_type, target_id: input.target_id, closed_complaints: closed.length, hidden: false };
}

/**
 * Closes a target's open complaints with no action on it. An automatic hide was only pending
 * review: it is undone (not for good: enough new complaints hide it again). A moderator's hide stays.
 */
export async function dismissComplaints(
  tx: Db,
  moderatorId: number,
  input: { target_type: ModeratedType; target_id: number; reason: string },
): Promise<ModerationResult> {
  await requireModerator(tx, moderatorId);
  let authorId: number;
  let postId = 0;
  let hidden = false;
  const notices: ModerationNotice[] = [];
  if (input.target_type === 'user') {
    authorId = (await lockUser(tx, input.target_id)).id;
    if (authorId === moderatorId) throw forbidden(OWN_TARGET_MESSAGE);
  } else {
    const content = await contentToModerate(tx, moderatorId, input.target_type, input.target_id);
    authorId = content.authorId;
    postId = content.postId;
    if (content.autoHidden) {
      await show(tx, content, false);
      notices.push(shownAgainNotice(content));
    }
    hidden = content.hidden && !content.autoHidden;
  }
  const closed = await closeComplaints(tx, input.target_type, input.target_id, 'dismissed');
  const actionId = await recordAction(tx, {
    moderatorId,
    action: 'dismiss',
    targetType: input.target_type,
    targetId: input.target_id,
    targetUserId: authorId,
    reason: input.reason,
  });
  await sendModerationNotices(tx, [...notices, ...complainantNotices(closed, input.target_type, input.target_id, postId, 'dismissed')]);
  return { action_id: actionId, target_type: input.target_type, target_id: input.target_id, closed_complaints: closed.length, hidden };
}

/**
 * The automatic first response, in complain/add's transaction after its complaint is written:
 * `threshold` distinct users' open complaints (one each, by the unique index) hide a post or
 * comment that is not hidden and was never restored by a moderator. The target's row is locked
 * before the complaints are counted, and each complaint's transaction holds it until it commits:
 * concurrent complaints count one after another, each seeing those before it (read committed),
 * so exactly the one that reaches the threshold hides it, once.
 */
export async function autoHideIfReported(tx: Db, type: ContentType, id: number, threshold: number): Promise<boolean> {
  const content = await lockContent(tx, type, id);
  if (content.hidden || content.cleared) return false;
  const [open] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(complaints)
    .where(and(eq(complaints.targetType, type), eq(complaints.targetId, id), isNull(complaints.closedAt)));
  if (Number(open?.n ?? 0) < threshold) return false;
  await hide(tx, content, null, AUTO_HIDE_REASON);
  await recordAction(tx, {
    moderatorId: null,
    action: 'auto_hide',
    targetType: type,
    targetId: id,
    targetUserId: content.authorId,
    reason: AUTO_HIDE_REASON,
  });
  await sendModerationNotices(tx, [
    { recipientId: content.authorId, message: `你的${KIND[type]}被多位用户举报，已暂时隐藏，等待审核`, ...noticeSubject(type, id, content.postId) },
  ]);
  return true;
}

// ---- suspensions ----

async function lockUser(tx: Db, userId: number): Promise<{ id: number }> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  if (!user) throw notFound('用户');
  return user;
}

/**
 * Suspends a user for 1, 7 or 30 days from `now`, or for good: every write of theirs answers
 * -1014 until then. Not oneself, nor another moderator (-1006). A new suspension replaces the one before.
 */
export async function suspendUser(
  tx: Db,
  moderatorId: number,
  input: { user_id: number; days: SuspensionDays; reason: string },
  now: number = Date.now(),
): Promise<SuspensionResult> {
  await requireModerator(tx, moderatorId);
  if (input.user_id === moderatorId) throw forbidden(OWN_TARGET_MESSAGE);
  await lockUser(tx, input.user_id);
  if (await isModerator(tx, input.user_id)) throw forbidden(MODERATOR_TARGET_MESSAGE);
  const until = input.days === 'forever' ? ('infinity' as const) : new Date(now + input.days * DAY_MS);
  await tx
    .update(users)
    .set({ suspendedUntil: until === 'infinity' ? sql`'infinity'::timestamptz` : until })
    .where(eq(users.id, input.user_id));
  const closed = await closeComplaints(tx, 'user', input.user_id, 'suspended');
  const actionId = await recordAction(tx, {
    moderatorId,
    action: 'suspend',
    targetType: 'user',
    targetId: input.user_id,
    targetUserId: input.user_id,
    reason: input.reason,
    until,
  });
  const lasting = until === 'infinity' ? '你的账号已被永久禁言' : `你的账号已被禁言，至 ${chinaMinute(until.getTime())} 解除`;
  await sendModerationNotices(tx, [
    { recipientId: input.user_id, message: `${lasting}，理由：${input.reason}`, targetUserId: input.user_id },
    ...complainantNotices(closed, 'user', input.user_id, 0, 'suspended'),
  ]);
  return {
    action_id: actionId,
    user_id: input.user_id,
    closed_complaints: closed.length,
    suspended: true,
    suspended_until: until === 'infinity' ? null : until.getTime(),
  };
}

/** Lifts a user's suspension (a user who is not suspended stays as they are); not one's own (-1006). */
export async function liftSuspension(tx: Db, moderatorId: number, input: { user_id: number; reason: string }): Promise<SuspensionResult> {
  await requireModerator(tx, moderatorId);
  if (input.user_id === moderatorId) throw forbidden(OWN_TARGET_MESSAGE);
  await lockUser(tx, input.user_id);
  const [before] = await tx
    .select({ suspended: sql<boolean>`coalesce(${users.suspendedUntil} > now(), false)` })
    .from(users)
    .where(eq(users.id, input.user_id));
  await tx.update(users).set({ suspendedUntil: null }).where(eq(users.id, input.user_id));
  const closed = await closeComplaints(tx, 'user', input.user_id, 'lifted');
  const actionId = await recordAction(tx, {
    moderatorId,
    action: 'lift',
    targetType: 'user',
    targetId: input.user_id,
    targetUserId: input.user_id,
    reason: input.reason,
  });
  await sendModerationNotices(tx, [
    ...(before?.suspended ? [{ recipientId: input.user_id, message: '你的账号已解除禁言', targetUserId: input.user_id }] : []),
    ...complainantNotices(closed, 'user', input.user_id, 0, 'lifted'),
  ]);
  return { action_id: actionId, user_id: input.user_id, closed_complaints: closed.length, suspended: false, suspended_until: null };
}

// ---- reads: the audit log and the review queue ----

/** ms since 1970 of a timestamp column, 'infinity' as null. */
const msOf = (column: unknown) => sql<number | null>`case when ${column} = 'infinity' then null else floor(extract(epoch from ${column}) * 1000)::float8 end`;

const actionColumns = {
  id: moderationActions.id,
  action: moderationActions.action,
  moderatorId: moderationActions.moderatorId,
  targetType: moderationActions.targetType,
  targetId: moderationActions.targetId,
  targetUserId: moderationActions.targetUserId,
  reason: moderationActions.reason,
  untilMs: msOf(moderationActions.until),
  forever: sql<boolean>`coalesce(${moderationActions.until} = 'infinity', false)`,
  createMs: msOf(moderationActions.createdAt),
};

type ActionRowRead = {
  id: number;
  action: ModerationAction;
  moderatorId: number | null;
  targetType: ModeratedType;
  targetId: number;
  targetUserId: number;
  reason: string;
  untilMs: number | string | null;
  forever: boolean;
  createMs: number | string | null;
};

function toLogEntries(rows: ActionRowRead[], briefs: Map<number, UserBrief>): ModerationLogEntry[] {
  return rows.flatMap((row) => {
    const targetUser = briefs.get(row.targetUserId);
    if (!targetUser) return [];
    return [
      {
        id: Number(row.id),
        action: row.action,
        moderator: row.moderatorId === null ? null : (briefs.get(row.moderatorId) ?? null),
        target_type: row.targetType,
        target_id: Number(row.targetId),
        target_user: targetUser,
        reason: row.reason,
        until: row.untilMs === null ? null : Number(row.untilMs),
        forever: row.forever,
        create_time: Number(row.createMs ?? 0),
      },
    ];
  });
}

const usersOfActions = (rows: ActionRowRead[]) => rows.flatMap((row) => [row.targetUserId, ...(row.moderatorId === null ? [] : [row.moderatorId])]);

/** The audit log, newest first, keyset-paged by id; `userId`: only the actions on that user's content and account. */
export async function moderationLog(
  db: Db,
  moderatorId: number,
  input: KeysetRequest & { user_id?: number | undefined },
): Promise<Paged<ModerationLogEntry>> {
  await requireModerator(db, moderatorId);
  const size = input.size ?? DEFAULT_PAGE_SIZE;
  const rows = (await db
    .select(actionColumns)
    .from(moderationActions)
    .where(
      and(
        input.index ? lt(moderationActions.id, input.index) : undefined,
        input.user_id === undefined ? undefined : eq(moderationActions.targetUserId, input.user_id),
      ),
    )
    .orderBy(desc(moderationActions.id))
    .limit(size + 1)) as ActionRowRead[];
  const shown = rows.slice(0, size);
  const briefs = await userBriefs(db, usersOfActions(shown), moderatorId);
  const list = toLogEntries(shown, briefs);
  return { list, page: { more: rows.length > size, next_index: Number(shown.at(-1)?.id ?? 0) } };
}

interface QueueGroup {
  target_type: ModeratedType;
  target_id: number | string;
  n: number;
  first_ms: number | string;
  last_ms: number | string;
  auto_hidden: boolean;
}

const REASON_TEXT = new Map<string, string>(COMPLAIN_REASONS.map((item) => [item.reason, item.text]));

/**
 * The review queue: open complaints grouped by target, the automatically hidden first (they wait
 * hidden for a decision), then the most reported, then the oldest; offset-paged (index). Each
 * group with its reasons and the complainants' words, the target as users see it, and its author's
 * recent posts and the earlier actions on their content and account.
 */
export async function moderationQueue(db: Db, moderatorId: number, paging: KeysetRequest): Promise<Paged<ModerationQueueItem>> {
  await requireModerator(db, moderatorId);
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const offset = paging.index ?? 0;
  const groups = (
    (await db.execute(sql`
      select o.* from (
        select c.target_type, c.target_id, count(*)::int as n,
          floor(extract(epoch from min(c.created_at)) * 1000)::float8 as first_ms,
          floor(extract(epoch from max(c.created_at)) * 1000)::float8 as last_ms,
          coalesce(case c.target_type
            when 'post' then (select p.hidden_at is not null and p.hidden_by is null from posts p where p.id = c.target_id)
            when 'comment' then (select m.hidden_at is not null and m.hidden_by is null from comments m where m.id = c.target_id)
          end, false) as auto_hidden
        from complaints c where c.closed_at is null
        group by c.target_type, c.target_id) o
      order by o.auto_hidden desc, o.n desc, o.first_ms, o.target_type, o.target_id
      limit ${size + 1} offset ${offset}`)) as unknown as { rows: QueueGroup[] }
  ).rows;
  const shown = groups.slice(0, size);
  // One group after the other: `db` answers one query at a time on PGlite, and a page is short.
  const list: ModerationQueueItem[] = [];
  for (const group of shown) {
    const item = await queueItem(db, moderatorId, group);
    if (item) list.push(item);
  }
  return { list, page: { more: groups.length > size, next_index: offset + shown.length } };
}

async function queueItem(db: Db, moderatorId: number, group: QueueGroup): Promise<ModerationQueueItem | null> {
  const type = group.target_type;
  const id = Number(group.target_id);
  const open = and(eq(complaints.targetType, type), eq(complaints.targetId, id), isNull(complaints.closedAt));
  const reasons = await db
    .select({ reason: complaints.reason, count: sql<number>`count(*)::int` })
    .from(complaints)
    .where(open)
    .groupBy(complaints.reason)
    .orderBy(sql`count(*) desc`, complaints.reason);
  const words = await db
    .select({ reason: complaints.reason, content: complaints.content, createMs: msOf(complaints.createdAt) })
    .from(complaints)
    .where(open)
    .orderBy(desc(complaints.id))
    .limit(COMPLAINTS_SHOWN);

  const { authorId, hidden, hiddenReason, gone, post, comment } = await reportedTarget(db, type, id);
  if (authorId === undefined) return null;
  const author = await authorHistory(db, moderatorId, authorId);
  if (!author) return null;
  return {
    target_type: type,
    target_id: id,
    complaint_count: group.n,
    first_time: Number(group.first_ms),
    last_time: Number(group.last_ms),
    reasons: reasons.map((row) => ({ reason: row.reason, text: REASON_TEXT.get(row.reason) ?? '未选择', count: Number(row.count) })),
    complaints: words.map((row) => ({ reason: row.reason, content: row.content, create_time: Number(row.createMs ?? 0) })),
    hidden,
    auto_hidden: group.auto_hidden,
    hidden_reason: hidden ? hiddenReason : null,
    gone,
    post,
    comment,
    author,
  };
}

/** What a queue item is about, as it stands: its author, whether hidden (and why) or gone, and the post or comment itself. */
interface ReportedTarget {
  authorId: number | undefined;
  hidden: boolean;
  hiddenReason: string | null;
  gone: boolean;
  post: ModerationQueueItem['post'];
  comment: ModerationQueueItem['comment'];
}

async function reportedTarget(db: Db, type: ModeratedType, id: number): Promise<ReportedTarget> {
  if (type === 'post') return reportedPost(db, id);
  if (type === 'comment') return reportedComment(db, id);
  return { authorId: id, hidden: false, hiddenReason: null, gone: false, post: null, comment: null };
}

async function reportedPost(db: Db, id: number): Promise<ReportedTarget> {
  const [row] = await db
    .select({ userId: posts.userId, deletedAt: posts.deletedAt, hiddenAt: posts.hiddenAt, hiddenReason: posts.hiddenReason })
    .from(posts)
    .where(eq(posts.id, id));
  const post = row && row.deletedAt === null ? await getModeratedPost(db, id) : null;
  return { authorId: row?.userId, hidden: row?.hiddenAt != null, hiddenReason: row?.hiddenReason ?? null, gone: post === null, post, comment: null };
}

async function reportedComment(db: Db, id: number): Promise<ReportedTarget> {
  const [row] = await db
    .select({
      userId: comments.userId,
      postId: comments.postId,
      content: comments.content,
      createMs: msOf(comments.createdAt),
      deletedAt: comments.deletedAt,
      hiddenAt: comments.hiddenAt,
      hiddenReason: comments.hiddenReason,
      postDeletedAt: posts.deletedAt,
    })
    .from(comments)
    .innerJoin(posts, eq(posts.id, comments.postId))
    .where(eq(comments.id, id));
  const hidden = row?.hiddenAt != null;
  const hiddenReason = row?.hiddenReason ?? null;
  const gone = !row || row.deletedAt !== null || row.postDeletedAt !== null;
  const comment =
    row && !gone
      ? { id, post_id: Number(row.postId), content: row.content, create_time: Number(row.createMs ?? 0), hidden, hidden_reason: hiddenReason }
      : null;
  return { authorId: row?.userId, hidden, hiddenReason, gone, post: null, comment };
}

/** A user as a moderator weighs them: suspended or not, their latest posts, the earlier actions on them. */
async function authorHistory(db: Db, moderatorId: number, userId: number): Promise<ModerationQueueItem['author'] | null> {
  const [user] = await db
    .select({
      suspended: sql<boolean>`coalesce(${users.suspendedUntil} > now(), false)`,
      untilMs: msOf(users.suspendedUntil),
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return null;
  const recent = await db
    .select({ id: posts.id, content: sql<string>`left(${posts.content}, ${RECENT_POST_CHARS})`, createMs: msOf(posts.createdAt), hiddenAt: posts.hiddenAt })
    .from(posts)
    .where(and(eq(posts.userId, userId), isNull(posts.deletedAt)))
    .orderBy(desc(posts.id))
    .limit(RECENT_POSTS);
  const actions = (await db
    .select(actionColumns)
    .from(moderationActions)
    .where(eq(moderationActions.targetUserId, userId))
    .orderBy(desc(moderationActions.id))
    .limit(RECENT_ACTIONS)) as ActionRowRead[];
  const briefs = await userBriefs(db, [userId, ...usersOfActions(actions)], moderatorId);
  const brief = briefs.get(userId);
  if (!brief) return null;
  return {
    user: brief,
    is_moderator: await isModerator(db, userId),
    suspended: user.suspended,
    suspended_until: user.suspended && user.untilMs !== null ? Number(user.untilMs) : null,
    recent_posts: recent.map((row) => ({
      id: Number(row.id),
      content: row.content,
      create_time: Number(row.createMs ?? 0),
      hidden: row.hiddenAt !== null,
    })),
    actions: toLogEntries(actions, briefs),
  };
}
