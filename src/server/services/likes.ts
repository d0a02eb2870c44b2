/** Likes of posts and comments (through the one edge toggle), and who liked a post, newest first. */
import { and, eq, isNull } from 'drizzle-orm';
import type { UserBrief } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { existsPerRow, preparedStatement, queryPrepared, type PreparedStatement } from '../db/prepared.ts';
import { comments, likes, posts, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { counter, toggleEdge } from './edges.ts';
import { joinNoticeGroup, leaveNoticeGroup, type GroupKey } from './notices.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';

export type LikeTarget = { post_id: number } | { comment_id: number };

/**
 * Likes (`on`) or unlikes the target in the caller's transaction; answers the count after the
 * call. Repeating either is harmless and answers the same. A deleted or missing target (or a
 * comment of a deleted post): -1005. The target row is locked first, so a like and a delete of
 * the same target never interleave, and the count read under the lock is the one we change.
 */
export async function setLike(tx: Db, userId: number, target: LikeTarget, on: boolean): Promise<{ is_success: true; like_count: number }> {
  if ('post_id' in target) {
    const id = target.post_id;
    const [row] = await tx
      .select({ authorId: posts.userId, likeCount: posts.likeCount })
      .from(posts)
      .where(and(eq(posts.id, id), isNull(posts.deletedAt)))
      .for('update');
    if (!row) throw notFound('动态');
    const changed = await toggleEdge(tx, {
      table: likes,
      key: { userId, targetType: 'post', targetId: id },
      on,
      counters: [counter(posts.likeCount, id), counter(users.likeCount, row.authorId)],
    });
    if (changed) await likeNotice(tx, { type: 'like', recipientId: row.authorId, postId: id, commentId: 0 }, userId, on);
    return { is_success: true, like_count: row.likeCount + (changed ? (on ? 1 : -1) : 0) };
  }
  const id = target.comment_id;
  const [row] = await tx
    .select({ authorId: comments.userId, likeCount: comments.likeCount, postId: comments.postId })
    .from(comments)
    .innerJoin(posts, eq(posts.id, comments.postId))
    .where(and(eq(comments.id, id), isNull(comments.deletedAt), isNull(posts.deletedAt)))
    .for('update', { of: comments });
  if (!row) throw notFound('评论');
  const changed = await toggleEdge(tx, {
    table: likes,
    key: { userId, targetType: 'comment', targetId: id },
    on,
    counters: [counter(comments.likeCount, id), counter(users.likeCount, row.authorId)],
  });
  if (changed) await likeNotice(tx, { type: 'like', recipientId: row.authorId, postId: row.postId, commentId: id }, userId, on);
  return { is_success: true, like_count: row.likeCount + (changed ? (on ? 1 : -1) : 0) };
}

/** A like joins the author's like group of the target; an unlike leaves it. */
function likeNotice(tx: Db, key: GroupKey, userId: number, on: boolean): Promise<void> {
  return on ? joinNoticeGroup(tx, key, userId) : leaveNoticeGroup(tx, key, userId);
}

/** The keyset bound of a first page: above every id. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Likers of post $1 below like id $2, newest first, with each liker's brief; logged in (`viewer`
 * is $3), whether the viewer follows them. One prepared statement (db/prepared.ts) per page size,
 * ordered `desc nulls last` as likes_target_order_idx is (a plain `desc` would not walk it).
 */
function likersStatementText(limit: number, withViewer: boolean): string {
  return `select l.id, l.user_id, u.ucode, u.nick, u.avatar
      ${withViewer ? `, ${existsPerRow('user_follows f where f.follower_id = $3 and f.followee_id = l.user_id')} as is_follow` : ''}
    from likes l join users u on u.id = l.user_id
    where l.target_type = 'post' and l.target_id = $1 and l.id < $2
    order by l.id desc nulls last limit ${limit}`;
}

const statements = new Map<string, PreparedStatement>();

function likersStatement(limit: number, withViewer: boolean): PreparedStatement {
  const name = `likers_${limit}${withViewer ? '_viewer' : ''}`;
  let statement = statements.get(name);
  if (!statement) {
    statement = preparedStatement(name, withViewer ? ['bigint', 'bigint', 'int'] : ['bigint', 'bigint'], likersStatementText(limit, withViewer));
    statements.set(name, statement);
  }
  return statement;
}

interface LikerRow {
  id: number | string;
  user_id: number;
  ucode: string;
  nick: string;
  avatar: string;
  is_follow?: boolean;
}

/** Who liked a post, newest like first; the cursor is the like's id. */
export async function listLikers(db: Db, postId: number, paging: KeysetRequest, viewerId: number | null): Promise<Page<UserBrief>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const values = [postId, paging.index || NO_BOUND];
  const rows = await queryPrepared<LikerRow>(
    db,
    likersStatement(size + 1, viewerId !== null),
    viewerId === null ? values : [...values, viewerId],
  );
  return keysetPage(rows, size, (row) => Number(row.id), (page) =>
    page.map((row) => ({ uid: row.user_id, ucode: row.ucode, nick: row.nick, avatar: row.avatar, is_follow: row.is_follow ?? false })),
  );
}
