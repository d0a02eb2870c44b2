/**
 * Comments: top-level comments oldest first, each with its first replies; writing and deleting
 * them. Replies are stored flat under their root (root_id) with reply_user set to the author
 * they answer. A deleted comment leaves the list, except a top-level one that still has live
 * replies: it keeps its place as is_deleted with content '' (该评论已删除).
 *
 * Counters: posts.comment_count counts live comments and replies; comments.reply_count the
 * live replies of a root; the author's users.like_count the likes of live comments. Every write
 * locks the post row first (then comments, then users), so writes of one post never deadlock.
 *
 * A comment a moderator hid (services/moderation.ts) is read by its author alone, with the
 * reason; it counts in neither count above. For anyone else a hidden top-level comment that has
 * live replies keeps its place as a deleted one does (content '', is_deleted), marked hidden.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Comment, CommentBase, UserBrief } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { boundText, existsPerRow, preparedStatement, queryPrepared, statementNamed, type PreparedStatement } from '../db/prepared.ts';
import { comments, posts, users } from '../db/schema.ts';
import { BusinessError, forbidden, notFound } from '../errors.ts';
import { ErrorCode } from '#shared/errors.ts';
import { DAILY_WINDOW_SECONDS, dailyCapKey } from './limits/daily-caps.ts';
import { windowHitText } from './limits/window-counters.ts';
import { commentPreviewChanged, noticeExcerpt, removeCommentNotices } from './notices.ts';
import { onceParts, type InStatement, type OnceCall, type OnceOutcome } from './once.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';

const FIRST_REPLIES = 3;

/** The keyset bound of a first page: below every id. */
const NO_BOUND = 0;

const COMMENT_COLUMNS =
  'id, post_id, user_id, root_id, reply_user_id, content, like_count, reply_count, created_at, deleted_at, hidden_at, hidden_reason';

/** Whether the viewer (`viewer` its placeholder, null for a visitor) reads comment `alias` whole: it is not hidden, or is their own. */
const readsWhole = (alias: string, viewer: string | null) =>
  viewer ? `(${alias}.hidden_at is null or ${alias}.user_id = ${viewer})` : `${alias}.hidden_at is null`;

/**
 * The comments to show, oldest first: `page` the top-level comments of post $1 after id $2
 * that are live (and not hidden from the viewer) or still have live replies; `one` the comment $1
 * (a write answering it).
 */
const sources = {
  page: {
    types: ['bigint', 'bigint'],
    text: (limit: number, viewer: string | null) => `select ${COMMENT_COLUMNS} from comments c
      where post_id = $1 and root_id is null and ((deleted_at is null and ${readsWhole('c', viewer)}) or reply_count > 0) and id > $2
      order by id limit ${limit}`,
  },
  one: { types: ['bigint'], text: () => `select ${COMMENT_COLUMNS} from comments where id = $1` },
} as const;

type Source = keyof typeof sources;

/** The columns every comment row is read with: its author and answered user, and, logged in, the viewer's like and follows. */
function commentColumns(viewer: string | null): string {
  const mine = (text: string) => (viewer ? text : '');
  const brief = (alias: string, column: string) => `${alias}.ucode as ${alias}_ucode, ${alias}.nick as ${alias}_nick, ${alias}.avatar as ${alias}_avatar
      ${mine(`, ${existsPerRow(`user_follows f where f.follower_id = ${viewer} and f.followee_id = ${column}`)} as ${alias}_is_follow`)}`;
  return `c.id, c.post_id, c.user_id, c.root_id, c.reply_user_id, c.content, c.like_count, c.reply_count,
      c.deleted_at is not null or not ${readsWhole('c', viewer)} as is_deleted,
      c.hidden_at is not null as hidden, case when ${readsWhole('c', viewer)} then c.hidden_reason end as hidden_reason,
      floor(extract(epoch from c.created_at) * 1000)::float8 as create_time,
      ${brief('u', 'c.user_id')}, ${brief('ru', 'c.reply_user_id')}
      ${mine(`, ${existsPerRow(`likes l where l.target_type = 'comment' and l.target_id = c.id and l.user_id = ${viewer}`)} as is_like`)}`;
}

/**
 * One statement, prepared (db/prepared.ts): the comments (one more than `size` asked for, to
 * learn whether more follow), the first live replies of each shown, and every author and answered
 * user; logged in (`viewer` is $n), whether the viewer liked each and follows each user.
 */
function commentStatementText(source: Source, size: number, viewer: string | null): string {
  return `with roots as materialized (${sources[source].text(size + 1, viewer)}),
    replies as (
      select r.* from (select id from roots order by id limit ${size}) root
      cross join lateral (
        select ${COMMENT_COLUMNS} from comments c
        where root_id = root.id and deleted_at is null and ${readsWhole('c', viewer)} order by id limit ${FIRST_REPLIES}) r),
    listed as (select false as is_reply, * from roots union all select true, * from replies)
    select c.is_reply, ${commentColumns(viewer)}
    from listed c
    join users u on u.id = c.user_id
    left join users ru on ru.id = c.reply_user_id
    order by c.is_reply, c.id`;
}

function commentStatement(source: Source, size: number, withViewer: boolean): PreparedStatement {
  return statementNamed(`comments_${source}_${size}${withViewer ? '_viewer' : ''}`, (name) => {
    const types = sources[source].types;
    const viewer = withViewer ? `$${types.length + 1}` : null;
    return preparedStatement(name, withViewer ? [...types, 'int'] : types, commentStatementText(source, size, viewer));
  });
}

/**
 * The live replies of top-level comment $1 after id $2, oldest first (one more than `size`, to
 * learn whether more follow); `root` answers whether $1 is a top-level comment of a live post.
 */
function repliesStatement(size: number, withViewer: boolean): PreparedStatement {
  return statementNamed(`comment_replies_${size}${withViewer ? '_viewer' : ''}`, (name) =>
    preparedStatement(
      name,
      withViewer ? ['bigint', 'bigint', 'int'] : ['bigint', 'bigint'],
      `select true as is_reply, ${commentColumns(withViewer ? '$3' : null)},
        exists (select from comments r join posts p on p.id = r.post_id and p.deleted_at is null and ${readsWhole('p', withViewer ? '$3' : null)}
          where r.id = $1 and r.root_id is null) as root
      from (select 1) one
      left join comments c on c.root_id = $1 and c.deleted_at is null and ${readsWhole('c', withViewer ? '$3' : null)} and c.id > $2
      left join users u on u.id = c.user_id
      left join users ru on ru.id = c.reply_user_id
      order by c.id limit ${size + 1}`,
    ),
  );
}

interface CommentRow {
  is_reply: boolean;
  id: number | string;
  post_id: number | string;
  user_id: number;
  root_id: number | string | null;
  reply_user_id: number | null;
  content: string;
  like_count: number;
  reply_count: number;
  is_deleted: boolean;
  hidden: boolean;
  hidden_reason: string | null;
  create_time: number;
  u_ucode: string;
  u_nick: string;
  u_avatar: string;
  u_is_follow?: boolean;
  ru_ucode: string | null;
  ru_nick: string | null;
  ru_avatar: string | null;
  ru_is_follow?: boolean;
  is_like?: boolean;
}

function toBase(row: CommentRow): CommentBase {
  const replyUser: UserBrief | null =
    row.reply_user_id !== null && row.ru_ucode !== null
      ? { uid: row.reply_user_id, ucode: row.ru_ucode, nick: row.ru_nick!, avatar: row.ru_avatar!, is_follow: row.ru_is_follow ?? false }
      : null;
  return {
    id: Number(row.id),
    post_id: Number(row.post_id),
    user: { uid: row.user_id, ucode: row.u_ucode, nick: row.u_nick, avatar: row.u_avatar, is_follow: row.u_is_follow ?? false },
    content: row.is_deleted ? '' : row.content,
    like_count: row.like_count,
    is_like: row.is_like ?? false,
    create_time: row.create_time,
    reply_user: replyUser,
    is_deleted: row.is_deleted,
    // Only a hidden comment carries the marker: its author reads the reason, anyone else the place it keeps.
    ...(row.hidden ? { hidden: true, ...(row.hidden_reason !== null && !row.is_deleted ? { hidden_reason: row.hidden_reason } : {}) } : {}),
  };
}

/** The comments of the rows, the first `size` (one more only tells that more follow), each with its first replies. */
async function readComments(db: Db, source: Source, size: number, values: number[], viewerId: number | null) {
  const statement = commentStatement(source, size, viewerId !== null);
  const rows = await queryPrepared<CommentRow>(db, statement, viewerId === null ? values : [...values, viewerId]);
  const roots = rows.filter((row) => !row.is_reply);
  const replies = new Map<number, CommentBase[]>();
  for (const row of rows) {
    if (!row.is_reply) continue;
    const rootId = Number(row.root_id);
    const list = replies.get(rootId);
    if (list) list.push(toBase(row));
    else replies.set(rootId, [toBase(row)]);
  }
  const list: Comment[] = roots.slice(0, size).map((root) => ({
    ...toBase(root),
    reply_count: root.reply_count,
    replies: replies.get(Number(root.id)) ?? [],
  }));
  return { list, more: roots.length > size };
}

export async function listComments(
  db: Db,
  postId: number,
  paging: KeysetRequest,
  viewerId: number | null,
): Promise<Page<Comment>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const { list, more } = await readComments(db, 'page', size, [postId, paging.index || NO_BOUND], viewerId);
  return { list, page: { more, next_index: list.at(-1)?.id ?? 0 } };
}

/**
 * The live replies of top-level comment `commentId`, oldest first, a page after the keyset
 * `paging.index` (the first page starts with the first reply, which comment/list also carries);
 * -1005 when it is no top-level comment of a live post.
 */
export async function listReplies(
  db: Db,
  commentId: number,
  paging: KeysetRequest,
  viewerId: number | null,
): Promise<Page<CommentBase>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const values = [commentId, paging.index || NO_BOUND];
  const rows = await queryPrepared<(CommentRow | { id: null }) & { root: boolean }>(
    db,
    repliesStatement(size, viewerId !== null),
    viewerId === null ? values : [...values, viewerId],
  );
  if (!rows[0]?.root) throw notFound('评论');
  // Without replies, the one row is the check's alone (its comment columns are null).
  const replies = rows.filter((row): row is CommentRow & { root: boolean } => row.id !== null);
  return keysetPage(replies, size, (row) => Number(row.id), (page) => page.map(toBase));
}

/** Locks a live post (the first lock of every comment write); -1005 when missing or deleted. */
async function lockLivePost(tx: Db, postId: number): Promise<{ authorId: number }> {
  const [post] = await tx
    .select({ authorId: posts.userId })
    .from(posts)
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt)))
    .for('update');
  if (!post) throw notFound('动态');
  return post;
}

export interface CommentAddInput {
  post_id: number;
  content: string;
  reply_id?: number | undefined;
}

/**
 * A comment, or with $6 a reply to that comment, as one statement: user $1, post $2, content $3,
 * the day's cap window $4 and its most $5, then the write's exactly-once part (once.ts,
 * onceParts). Locks the live post first, then the answered comment (live, of any post: the
 * answer tells which), then counts the day's comment, and only within the cap writes it with the
 * post's comment count and the root's reply count, and the notices: the answered author's reply
 * and the post author's comment (one, the reply, when they are the same person; none to oneself
 * or with the switch off) with their previews, the recipients' rows locked in id order. Answers the checks' findings
 * and the comment as the list shows it, which is also the stored answer.
 */
function addStatementText(keyed: boolean): string {
  const once = onceParts(7, keyed);
  const follows = (column: string) => existsPerRow(`user_follows f where f.follower_id = $1 and f.followee_id = ${column}`);
  const brief = (alias: string) =>
    `jsonb_build_object('uid', ${alias}.id, 'ucode', ${alias}.ucode, 'nick', ${alias}.nick, 'avatar', ${alias}.avatar, 'is_follow', ${follows(`${alias}.id`)})`;
  return `with ${once.ctes},
    post as (
      select id, user_id, content from posts p where id = $2 and deleted_at is null and ${readsWhole('p', '$1')} and exists (select from once_go) for update),
    answered as (
      select id, user_id, coalesce(root_id, id) as root_id, post_id, content from comments c
      where id = $6 and deleted_at is null and ${readsWhole('c', '$1')} and exists (select from post) for update),
    allowed as (
      select post.id as post_id, a.root_id, a.user_id as reply_user_id from post left join answered a on true
      where $6::bigint is null or a.post_id = post.id),
    cap as (${windowHitText('$4', String(DAILY_WINDOW_SECONDS), '1', 'from allowed')}),
    added as (
      insert into comments (post_id, user_id, root_id, reply_user_id, content)
      select post_id, $1, root_id, reply_user_id, $3 from allowed where (select count from cap) <= $5
      returning id, post_id, root_id, reply_user_id, content, created_at),
    counted as (update posts set comment_count = comment_count + 1 where id = (select post_id from added) returning id),
    replied as (update comments set reply_count = reply_count + 1 where id = (select root_id from added) returning id),
    recipient as (
      select id, case when id = (select reply_user_id from added) then 'reply' else 'comment' end as type from users
      where id in ((select reply_user_id from added), (select user_id from post)) and id <> $1 and notice_comment
        and exists (select from added)
      order by id for no key update),
    made as (
      insert into notices (user_id, type, tab, post_id, comment_id, target_comment_id, target_excerpt, content_excerpt)
      select r.id, r.type, 'comment', a.post_id, a.id, case when r.type = 'reply' then $6 else 0 end,
        case when r.type = 'reply' then (select ${noticeExcerpt('content')} from answered) else (select ${noticeExcerpt('content')} from post) end,
        ${noticeExcerpt('a.content')}
      from recipient r cross join added a returning id, seq, user_id),
    actor as (insert into notice_actors (notice_id, actor_id, seq) select id, $1, seq from made returning notice_id),
    unread as (update users set notice_unread = notice_unread + 1 where id in (select user_id from made) returning id),
    result as (
      select jsonb_build_object(
        'id', c.id, 'post_id', c.post_id, 'user', ${brief('u')}, 'content', c.content, 'like_count', 0, 'is_like', false,
        'create_time', floor(extract(epoch from c.created_at) * 1000),
        'reply_user', case when ru.id is null then null else ${brief('ru')} end,
        'is_deleted', false, 'reply_count', 0, 'replies', '[]'::jsonb) as answer
      from added c join users u on u.id = $1 left join users ru on ru.id = c.reply_user_id),
    ${once.store('answer', 'result')}
    select ${once.outcome}, exists (select from post) as post_live, (select post_id from answered) as answered_post_id,
      (select answer from result) as answer`;
}

const addStatements = {
  keyed: preparedStatement('comment_add', ['int', 'bigint', 'text', 'text', 'int', 'bigint', ...onceParts(7, true).types], addStatementText(true)),
  unkeyed: preparedStatement('comment_add_unkeyed', ['int', 'bigint', 'text', 'text', 'int', 'bigint', ...onceParts(7, false).types], addStatementText(false)),
};

interface AddedRow extends OnceOutcome {
  post_live: boolean;
  answered_post_id: number | string | null;
  answer: Comment | null;
}

/** Writes a comment, or a reply to a comment or reply of the same post (writer's inStatement); answers it as the list shows it. */
export async function addComment(db: Db, userId: number, input: CommentAddInput, dailyLimit: number, once: OnceCall): Promise<InStatement<Comment>> {
  const [row] = await queryPrepared<AddedRow>(db, once.keyed ? addStatements.keyed : addStatements.unkeyed, [
    userId,
    input.post_id,
    boundText(input.content),
    boundText(dailyCapKey('comment', userId)),
    dailyLimit,
    input.reply_id ?? null,
    ...once.values,
  ]);
  if (!row) throw new Error('comment insert answered nothing');
  return {
    outcome: row,
    answer: () => {
      if (!row.post_live) throw notFound('动态');
      const reply = input.reply_id !== undefined;
      if (reply && row.answered_post_id === null) throw notFound('评论');
      if (reply && Number(row.answered_post_id) !== input.post_id) throw new BusinessError(ErrorCode.BadRequest, '回复的评论不属于这条动态');
      if (!row.answer) throw new BusinessError(ErrorCode.DailyLimit);
      return row.answer;
    },
  };
}

/**
 * Deletes a comment or reply: its author or the post's author may (else -1006). Counts follow
 * in the same transaction; a deleted or missing comment, or one of a deleted post: -1005.
 */
export async function deleteComment(tx: Db, userId: number, commentId: number): Promise<{ comment_id: number }> {
  const [found] = await tx.select({ postId: comments.postId }).from(comments).where(eq(comments.id, commentId));
  if (!found) throw notFound('评论');
  const post = await lockLivePost(tx, found.postId);
  const [comment] = await tx
    .select()
    .from(comments)
    .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)))
    .for('update');
  if (!comment) throw notFound('评论');
  if (comment.userId !== userId && post.authorId !== userId) throw forbidden();
  // First, with the author's row (changed below) locked in order with the recipients'.
  await removeCommentNotices(tx, commentId, [comment.userId]);
  await commentPreviewChanged(tx, commentId, 'deleted', [comment.userId]);
  await tx.update(comments).set({ deletedAt: sql`now()` }).where(eq(comments.id, commentId));
  // A hidden comment was taken out of the counts when it was hidden.
  const counted = comment.hiddenAt === null;
  if (counted) {
    await tx
      .update(posts)
      .set({ commentCount: sql`${posts.commentCount} - 1` })
      .where(eq(posts.id, comment.postId));
  }
  if (counted && comment.rootId !== null) {
    await tx
      .update(comments)
      .set({ replyCount: sql`${comments.replyCount} - 1` })
      .where(eq(comments.id, comment.rootId));
  }
  // Likes of a deleted comment no longer count for its author.
  if (comment.likeCount !== 0) {
    await tx
      .update(users)
      .set({ likeCount: sql`${users.likeCount} - ${comment.likeCount}` })
      .where(eq(users.id, comment.userId));
  }
  return { comment_id: commentId };
}
