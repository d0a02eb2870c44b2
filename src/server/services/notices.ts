/**
 * Notices: what others did to a user's posts, comments and account. Each is made, grown, shrunk
 * or removed in the caller's transaction, by the write that causes it, so a replay of that write
 * (services/once.ts) makes none. A comment or a reply is one notice; likes of one target and new
 * followers are one notice per recipient, target and China day, its actors newest first.
 *
 * A notice carries what its list shows of what was acted on (target_excerpt: the post, or the
 * comment liked or answered) and of the new comment (content_excerpt), cut as it is made
 * (noticeExcerpt) and kept right after (commentPreviewChanged): the list reads no post or comment.
 *
 * users.notice_unread counts the recipient's unread notices and moves with them. Lock order: the
 * recipient's users row first, then the notices, so mark-read and a like never wait in a cycle.
 * Rows are locked FOR NO KEY UPDATE: FOR UPDATE would also wait for the key-share locks that
 * foreign-key checks take (a concurrent follow of the same user) and deadlock with them.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_PAGE_SIZE, NOTICE_ACTORS_SHOWN, NOTICE_EXCERPT_CHARS } from '#shared/constants.ts';
import type { Notice, NoticeSettings, NoticeTab, NoticeType, UserBrief } from '#shared/schemas.ts';
import { CHINA_UTC_OFFSET_MINUTES } from '#shared/timestamp.ts';
import type { Db } from '../db/client.ts';
import { existsPerRow, preparedStatement, queryPrepared, statementNamed, type PreparedStatement } from '../db/prepared.ts';
import { notices, users } from '../db/schema.ts';
import type { KeysetRequest, Page } from './paging.ts';
import { refuseEndedTicket, TICKET_LIVE_SQL, type Viewer } from './sessions.ts';

type Setting = keyof NoticeSettings;

/** The notices others' acts make, each under a switch of the recipient's; moderation notices are always sent. */
type ActNoticeType = Exclude<NoticeType, 'moderation'>;
const SETTING_OF: Record<ActNoticeType, Setting> = { comment: 'comment', reply: 'comment', like: 'like', follow: 'follow' };
const TAB_OF: Record<ActNoticeType, 'comment' | 'like' | 'follow'> = { comment: 'comment', reply: 'comment', like: 'like', follow: 'follow' };
/** The column of users holding the recipient's switch for a kind of notice. */
const SETTING_COLUMN: Record<Setting, string> = { comment: 'notice_comment', like: 'notice_like', follow: 'notice_follow' };

/** The day number in China time (UTC+8): likes and follows of one day make one group. */
export function chinaDay(ms = Date.now()): number {
  return Math.floor((ms + CHINA_UTC_OFFSET_MINUTES * 60_000) / 86_400_000);
}

async function moveUnread(tx: Db, userId: number, step: number): Promise<void> {
  if (step === 0) return;
  await tx
    .update(users)
    .set({ noticeUnread: sql`${users.noticeUnread} + ${step}` })
    .where(eq(users.id, userId));
}

export interface CommentNotice {
  type: 'comment' | 'reply';
  recipientId: number;
  actorId: number;
  postId: number;
  /** The new comment or reply. */
  commentId: number;
  /** For a reply, the recipient's comment it answers. */
  targetCommentId?: number;
}

/** A text's preview in a notice, of `text` an expression (migration 0015_notice_previews, notice_excerpt). */
export const noticeExcerpt = (text: string) => `notice_excerpt(${text}, ${NOTICE_EXCERPT_CHARS})`;

/**
 * A comment's or a reply's notice, one statement: recipient $1 (when their switch is on), post $2,
 * the new comment $3, the answered comment $4 (0 for a comment), actor $5; the unread count with it.
 * Its previews: the post (a comment) or the answered comment (a reply), and the new comment.
 */
function commentNoticeText(type: CommentNotice['type']): string {
  const target = type === 'reply' ? 'select content from comments where id = $4' : 'select content from posts where id = $2';
  return `with recipient as (select id from users where id = $1 and ${SETTING_COLUMN[SETTING_OF[type]]} for no key update),
    made as (
      insert into notices (user_id, type, tab, post_id, comment_id, target_comment_id, target_excerpt, content_excerpt)
      select id, '${type}', '${TAB_OF[type]}', $2, $3, $4, ${noticeExcerpt(`(${target})`)}, ${noticeExcerpt('(select content from comments where id = $3)')}
      from recipient returning id, seq),
    actor as (insert into notice_actors (notice_id, actor_id, seq) select id, $5, seq from made returning notice_id)
    update users set notice_unread = notice_unread + 1 where id = $1 and exists (select from actor) returning id`;
}

const commentNoticeStatements = {
  comment: preparedStatement('notice_comment', ['int', 'bigint', 'bigint', 'bigint', 'int'], commentNoticeText('comment')),
  reply: preparedStatement('notice_reply', ['int', 'bigint', 'bigint', 'bigint', 'int'], commentNoticeText('reply')),
};

/** A comment on the recipient's post or a reply to their comment: one notice, unless it is their own. */
export async function noticeComment(tx: Db, n: CommentNotice): Promise<void> {
  if (n.recipientId === n.actorId) return;
  await queryPrepared(tx, commentNoticeStatements[n.type], [n.recipientId, n.postId, n.commentId, n.targetCommentId ?? 0, n.actorId]);
}

export interface GroupKey {
  type: 'like' | 'follow';
  recipientId: number;
  /** 0 for a follow. */
  postId: number;
  /** The liked comment; 0 for a post or a follow. */
  commentId: number;
}

/** Where a group statement takes its recipient, target, day and actor from: placeholders, or expressions of a CTE `from` starts it with. */
interface GroupParts {
  from: string;
  recipient: string;
  post: string;
  comment: string;
  day?: string;
  actor: string;
  /** A new group's target preview (the liked post or comment); none for a follow. */
  excerpt?: string;
}

/**
 * Joining a group, one statement: the recipient (when their switch is on), post, comment, day and
 * actor of `parts`. The group of the day is made or moved to the top (a new seq), unread again,
 * one actor more; the unread count moves when the group was new or read. Nothing when the actor
 * is in it already.
 */
function joinStatementText(type: GroupKey['type'], p: GroupParts): string {
  const group = `user_id = ${p.recipient} and type = '${type}' and post_id = ${p.post} and comment_id = ${p.comment} and day = ${p.day!}`;
  return `with ${p.from} recipient as (
      select id from users where id = ${p.recipient} and ${SETTING_COLUMN[SETTING_OF[type]]} for no key update),
    before as (select id, unread from notices where ${group}),
    grp as (
      insert into notices (user_id, type, tab, post_id, comment_id, day, target_excerpt)
      select id, '${type}', '${TAB_OF[type]}', ${p.post}, ${p.comment}, ${p.day!}, ${p.excerpt ?? "''"} from recipient
      where not exists (select from notice_actors na join before b on b.id = na.notice_id where na.actor_id = ${p.actor})
      on conflict (user_id, type, post_id, comment_id, day) where type in ('like', 'follow')
      do update set seq = nextval('notices_seq'), actor_count = notices.actor_count + 1, unread = true, updated_at = now()
      returning id, seq),
    actor as (insert into notice_actors (notice_id, actor_id, seq) select id, ${p.actor}, seq from grp returning notice_id),
    counted as (
      update users set notice_unread = notice_unread + 1
      where id = ${p.recipient} and exists (select from actor) and not coalesce((select unread from before), false) returning id)
    select (select count(*) from actor)::int as joined`;
}

/**
 * Leaving, one statement: the recipient, post, comment and actor of `parts`, of any day. The group
 * keeps its place and shows its newest remaining actor's time; a group left empty is removed,
 * and with it one unread when it was unread.
 */
function leaveStatementText(type: GroupKey['type'], p: GroupParts): string {
  return `with ${p.from} recipient as (select id from users where id = ${p.recipient} for no key update),
    grp as (
      select n.id, n.unread, n.actor_count from notices n join notice_actors na on na.notice_id = n.id and na.actor_id = ${p.actor}
      where n.user_id = ${p.recipient} and n.type = '${type}' and n.post_id = ${p.post} and n.comment_id = ${p.comment}
        and exists (select from recipient)
      for no key update of n),
    removed as (delete from notices where id in (select id from grp where actor_count <= 1) returning unread),
    left_actor as (delete from notice_actors where notice_id in (select id from grp where actor_count > 1) and actor_id = ${p.actor} returning notice_id),
    shrunk as (
      update notices set actor_count = actor_count - 1,
        updated_at = (select max(acted_at) from notice_actors where notice_id = notices.id and actor_id <> ${p.actor})
      where id in (select notice_id from left_actor) returning id),
    counted as (update users set notice_unread = notice_unread - 1 where id = ${p.recipient} and exists (select from removed where unread) returning id)
    select (select count(*) from removed)::int + (select count(*) from shrunk)::int as left`;
}

function groupStatement(change: 'join' | 'leave', type: GroupKey['type']): PreparedStatement {
  return statementNamed(`notice_${change}_${type}`, (name) => {
    const parts = { from: '', recipient: '$1', post: '$2', comment: '$3' };
    const excerpt =
      type === 'like'
        ? `case when $3 <> 0 then ${noticeExcerpt('(select content from comments where id = $3)')} else ${noticeExcerpt('(select content from posts where id = $2)')} end`
        : undefined;
    return change === 'join'
      ? preparedStatement(name, ['int', 'bigint', 'bigint', 'int', 'int'], joinStatementText(type, { ...parts, day: '$4', actor: '$5', excerpt }))
      : preparedStatement(name, ['int', 'bigint', 'bigint', 'int'], leaveStatementText(type, { ...parts, actor: '$4' }));
  });
}

/**
 * The notice of a like ($1 the liked post or comment, the actor $2, today $3 for a like) or an
 * unlike, to run right behind the like's statement in its transaction without waiting for its
 * answer: the target's author is the recipient, and the notice moves only when that statement
 * changed the target's like count in this transaction (the target's row is then this
 * transaction's own version: its xmin) and the actor is not the author. The like's statement
 * updated the author's row too, so what this one reads of their notices is current.
 */
function likeNoticeStatementText(target: 'post' | 'comment', on: boolean): string {
  const liked =
    target === 'post'
      ? `liked as (select user_id, id as post_id, 0::bigint as comment_id, content from posts
          where id = $1 and xmin = pg_current_xact_id()::xid and user_id <> $2),`
      : `liked as (select user_id, post_id, id as comment_id, content from comments
          where id = $1 and xmin = pg_current_xact_id()::xid and user_id <> $2),`;
  const parts = {
    from: liked,
    recipient: '(select user_id from liked)',
    post: '(select post_id from liked)',
    comment: '(select comment_id from liked)',
    actor: '$2',
    excerpt: `(select ${noticeExcerpt('content')} from liked)`,
  };
  return on ? joinStatementText('like', { ...parts, day: '$3' }) : leaveStatementText('like', parts);
}

/** Sends the notice of a like or an unlike of `target` by `actorId` (likeNoticeStatementText), as it is called. */
export function likeNotice(tx: Db, target: 'post' | 'comment', targetId: number, actorId: number, on: boolean): Promise<unknown> {
  const statement = statementNamed(`notice_${on ? 'join' : 'leave'}_like_of_${target}`, (name) =>
    preparedStatement(name, on ? ['bigint', 'int', 'int'] : ['bigint', 'int'], likeNoticeStatementText(target, on)),
  );
  return queryPrepared(tx, statement, on ? [targetId, actorId, chinaDay()] : [targetId, actorId]);
}

/**
 * Adds the actor to the group of today (made if there is none): the group moves to the top of the
 * list and is unread again. Call it with the recipient's row already locked by an earlier
 * statement of the transaction (a like's or follow's counter update locks it), so that what the
 * statement reads of their notices is current; its own lock covers the rest.
 */
export async function joinNoticeGroup(tx: Db, key: GroupKey, actorId: number): Promise<void> {
  if (key.recipientId === actorId) return;
  await queryPrepared(tx, groupStatement('join', key.type), [key.recipientId, key.postId, key.commentId, chinaDay(), actorId]);
}

/**
 * Takes the actor out of their group of this target (an unlike, an unfollow): the group keeps its
 * place and shows its newest remaining actor's time; an empty group is removed. The recipient's
 * row locked before, as for joinNoticeGroup.
 */
export async function leaveNoticeGroup(tx: Db, key: GroupKey, actorId: number): Promise<void> {
  if (key.recipientId === actorId) return;
  await queryPrepared(tx, groupStatement('leave', key.type), [key.recipientId, key.postId, key.commentId, actorId]);
}

/**
 * Locks the users rows of the recipients of the notices `where` picks, with `alsoLock`, in id
 * order (the order every change of others' notices keeps); false, locking nothing, when there are none.
 */
async function lockRecipients(tx: Db, where: SQL, alsoLock: readonly number[]): Promise<boolean> {
  const recipients = await tx.selectDistinct({ userId: notices.userId }).from(notices).where(where);
  if (recipients.length === 0) return false;
  const ids = [...new Set([...recipients.map((r) => r.userId), ...alsoLock])].sort((a, b) => a - b);
  await tx.select({ id: users.id }).from(users).where(inArray(users.id, ids)).orderBy(users.id).for('no key update');
  return true;
}

/**
 * Removes the notices about a deleted post or comment (`where` on notices), with the unread
 * counts of their recipients; the recipients' rows are locked first, in id order.
 */
async function removeNotices(tx: Db, where: SQL, alsoLock: readonly number[]): Promise<void> {
  if (!(await lockRecipients(tx, where, alsoLock))) return;
  const gone = await tx.delete(notices).where(where).returning({ userId: notices.userId, unread: notices.unread });
  const unread = new Map<number, number>();
  for (const row of gone) if (row.unread) unread.set(row.userId, (unread.get(row.userId) ?? 0) + 1);
  for (const [userId, n] of unread) await moveUnread(tx, userId, -n);
}

/**
 * A deleted post takes every notice about it (its comments, replies and likes). Called before the
 * delete moves any user's counters; `alsoLock` the users whose rows the delete then changes, locked
 * in the same id order as the recipients.
 */
export function removePostNotices(tx: Db, postId: number, alsoLock: readonly number[] = []): Promise<void> {
  return removeNotices(tx, sql`${notices.postId} = ${postId} and ${notices.postId} <> 0`, alsoLock);
}

/** A deleted comment or reply takes the notices it made and the likes of it (as removePostNotices). */
export function removeCommentNotices(tx: Db, commentId: number, alsoLock: readonly number[] = []): Promise<void> {
  return removeNotices(tx, sql`${notices.commentId} = ${commentId} and ${notices.commentId} <> 0`, alsoLock);
}

/**
 * The previews that show a comment, kept right as it changes. Hidden by a moderator, its text
 * leaves the notices of it (a comment or reply is someone else's to their recipients; the liked
 * comment's notice is its author's own, who still reads it); shown again, it comes back; deleted,
 * it leaves the replies' notices that show it as the comment they answer (the notices it made
 * itself go with it: removeCommentNotices). The recipients' rows are locked first, as for a removal.
 */
export async function commentPreviewChanged(tx: Db, commentId: number, change: 'hidden' | 'shown' | 'deleted', alsoLock: readonly number[] = []): Promise<void> {
  const ofComment = sql`${notices.commentId} = ${commentId} and ${notices.type} in ('comment', 'reply')`;
  const where = change === 'deleted' ? sql`${notices.targetCommentId} = ${commentId} and ${notices.targetCommentId} <> 0` : ofComment;
  if (!(await lockRecipients(tx, where, alsoLock))) return;
  await tx
    .update(notices)
    .set(
      change === 'deleted'
        ? { targetExcerpt: '' }
        : { contentExcerpt: change === 'hidden' ? '' : sql`(select ${sql.raw(noticeExcerpt('content'))} from comments where id = ${commentId})` },
    )
    .where(where);
}

// ---- reads ----

/** A moderation notice: to whom, about what (a post, a comment of a post, or a user), and its text. */
export interface ModerationNotice {
  recipientId: number;
  postId?: number;
  commentId?: number;
  targetUserId?: number;
  message: string;
}

/**
 * Moderation notices, always sent (no switch holds them back), with no actor; each recipient's
 * unread count moves with them, the recipients' rows locked in id order.
 */
export async function sendModerationNotices(tx: Db, list: readonly ModerationNotice[]): Promise<void> {
  if (list.length === 0) return;
  const sorted = [...list].sort((a, b) => a.recipientId - b.recipientId);
  const counts = new Map<number, number>();
  for (const n of sorted) counts.set(n.recipientId, (counts.get(n.recipientId) ?? 0) + 1);
  for (const [recipientId, step] of counts) await moveUnread(tx, recipientId, step);
  await tx.insert(notices).values(
    sorted.map((n) => ({
      userId: n.recipientId,
      type: 'moderation' as const,
      tab: 'system' as const,
      postId: n.postId ?? 0,
      commentId: n.commentId ?? 0,
      targetUserId: n.targetUserId ?? 0,
      message: n.message,
      actorCount: 0,
    })),
  );
}

/** The keyset bound of a first page: above every seq. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * A page of the user's ($1) notices below seq $2, newest activity first, read off
 * notices_user_seq_idx (or notices_user_tab_seq_idx for a tab), each with its stored previews and
 * its first actors (newest first). With `ticketCheck` ($3), nothing unless that ticket is still live.
 */
function listStatementText(tab: NoticeTab, limit: number, ticketCheck: string | null): string {
  return `select n.id, n.type, n.post_id, n.comment_id, n.actor_count, n.unread, n.seq, n.message, n.target_user_id,
      n.target_excerpt, n.content_excerpt, floor(extract(epoch from n.updated_at) * 1000)::float8 as update_time,
      a.actor_id, a.ucode, a.nick, a.avatar, a.is_follow
    from (select * from notices where user_id = $1 and seq < $2 ${tab === 'all' ? '' : `and tab = '${tab}'`}
      ${ticketCheck ? `and ${TICKET_LIVE_SQL(ticketCheck, '$1')}` : ''}
      order by seq desc nulls last limit ${limit}) n
    left join lateral (
      select na.actor_id, na.seq, u.ucode, u.nick, u.avatar,
        ${existsPerRow('user_follows f where f.follower_id = $1 and f.followee_id = na.actor_id')} as is_follow
      from notice_actors na join users u on u.id = na.actor_id
      where na.notice_id = n.id order by na.seq desc nulls last limit ${NOTICE_ACTORS_SHOWN}) a on true
    order by n.seq desc, a.seq desc`;
}

function listStatement(tab: NoticeTab, limit: number, checked: boolean): PreparedStatement {
  return statementNamed(`notices_${tab}_${limit}${checked ? '_checked' : ''}`, (name) =>
    preparedStatement(name, ['int', 'bigint', ...(checked ? ['text'] : [])], listStatementText(tab, limit, checked ? '$3' : null)),
  );
}

const unreadStatement = preparedStatement('notice_unread', ['int'], 'select notice_unread from users where id = $1');

interface NoticeRow {
  id: number | string;
  type: NoticeType;
  post_id: number | string;
  comment_id: number | string;
  actor_count: number;
  unread: boolean;
  seq: number | string;
  message: string;
  target_user_id: number;
  target_excerpt: string;
  content_excerpt: string;
  update_time: number;
  actor_id: number | null;
  ucode: string | null;
  nick: string | null;
  avatar: string | null;
  is_follow: boolean | null;
}


/** The post a notice opens, at the comment when it is about one. */
const postRoute = (postId: number, commentId: number): string =>
  commentId !== 0 ? `/message/detail/${postId}?comment=${commentId}` : `/message/detail/${postId}`;

function toNotice(row: NoticeRow, actors: UserBrief[]): Notice {
  const postId = Number(row.post_id);
  const commentId = Number(row.comment_id);
  if (row.type === 'moderation') {
    const route =
      row.target_user_id !== 0
        ? `/usercenter/${row.target_user_id}`
        : postRoute(postId, commentId);
    return {
      id: Number(row.id),
      type: row.type,
      actors: [],
      actor_count: 0,
      post_id: postId,
      comment_id: commentId,
      target_excerpt: '',
      content_excerpt: row.message,
      route,
      unread: row.unread,
      update_time: row.update_time,
    };
  }
  const route =
    row.type === 'follow'
      ? `/usercenter/${actors[0]?.uid ?? 0}`
      : postRoute(postId, commentId);
  return {
    id: Number(row.id),
    type: row.type,
    actors,
    actor_count: row.actor_count,
    post_id: postId,
    comment_id: commentId,
    target_excerpt: row.target_excerpt,
    content_excerpt: row.content_excerpt,
    route,
    unread: row.unread,
    update_time: row.update_time,
  };
}

/** Who reads their notices: the ticket to find still live when it was remembered rather than looked up (http/auth.ts). */
type Reader = Pick<Viewer, 'userId' | 'ticketCheck'>;

/** The user's notices, latest activity first; the cursor is the last one's seq. */
export async function listNotices(db: Db, viewer: Reader, paging: KeysetRequest & { type: NoticeTab }): Promise<Page<Notice>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const { userId, ticketCheck } = viewer;
  const checked = ticketCheck !== undefined;
  const rows = await queryPrepared<NoticeRow>(db, listStatement(paging.type, size + 1, checked), [
    userId,
    paging.index || NO_BOUND,
    ...(checked ? [ticketCheck] : []),
  ]);
  await refuseEndedTicket(db, viewer, rows.length);
  const byId = new Map<number, { row: NoticeRow; actors: UserBrief[] }>();
  for (const row of rows) {
    const id = Number(row.id);
    let entry = byId.get(id);
    if (!entry) {
      entry = { row, actors: [] };
      byId.set(id, entry);
    }
    if (row.actor_id !== null) {
      entry.actors.push({ uid: row.actor_id, ucode: row.ucode!, nick: row.nick!, avatar: row.avatar!, is_follow: row.is_follow ?? false });
    }
  }
  const all = [...byId.values()];
  const more = all.length > size;
  const page = all.slice(0, size);
  return {
    list: page.map(({ row, actors }) => toNotice(row, actors)),
    page: { more, next_index: page.length === 0 ? 0 : Number(page.at(-1)!.row.seq) },
  };
}

export async function unreadCount(db: Db, userId: number): Promise<{ count: number }> {
  const [row] = await queryPrepared<{ notice_unread: number }>(db, unreadStatement, [userId]);
  return { count: row?.notice_unread ?? 0 };
}

/**
 * Marks read the user's notices at or before the given one in the list's order (all when absent);
 * answers the unread count left. Another user's id, or one gone, changes nothing.
 */
export async function markNoticesRead(tx: Db, userId: number, upToId: number | undefined): Promise<{ count: number }> {
  const [me] = await tx.select({ unread: users.noticeUnread }).from(users).where(eq(users.id, userId)).for('no key update');
  if (!me) return { count: 0 };
  let bound = sql``;
  if (upToId !== undefined) {
    const [upTo] = await tx
      .select({ seq: notices.seq })
      .from(notices)
      .where(and(eq(notices.id, upToId), eq(notices.userId, userId)));
    if (!upTo) return { count: me.unread };
    bound = sql` and ${notices.seq} <= ${upTo.seq}`;
  }
  const read = await tx
    .update(notices)
    .set({ unread: false })
    .where(sql`${notices.userId} = ${userId} and ${notices.unread}${bound}`)
    .returning({ one: sql<number>`1` });
  if (read.length === 0) return { count: me.unread };
  const [after] = await tx
    .update(users)
    .set({ noticeUnread: sql`${users.noticeUnread} - ${read.length}` })
    .where(eq(users.id, userId))
    .returning({ unread: users.noticeUnread });
  return { count: after?.unread ?? 0 };
}

/** The user's switches; given ones change first (honoured from the next write on). */
export async function noticeSettings(db: Db, userId: number, change: Partial<NoticeSettings>): Promise<NoticeSettings> {
  const set: Partial<typeof users.$inferInsert> = {};
  if (change.comment !== undefined) set.noticeComment = change.comment;
  if (change.like !== undefined) set.noticeLike = change.like;
  if (change.follow !== undefined) set.noticeFollow = change.follow;
  const columns = { comment: users.noticeComment, like: users.noticeLike, follow: users.noticeFollow };
  const [row] =
    Object.keys(set).length === 0
      ? await db.select(columns).from(users).where(eq(users.id, userId))
      : await db.update(users).set(set).where(eq(users.id, userId)).returning(columns);
  return row ?? { comment: true, like: true, follow: true };
}
