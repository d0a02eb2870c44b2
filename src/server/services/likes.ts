/** Likes of posts and comments (through the one edge toggle), and who liked a post, newest first. */
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { UserBrief } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { comments, likes, posts, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { counter, toggleEdge } from './edges.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';
import { userBriefs } from './users.ts';

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
    return { is_success: true, like_count: row.likeCount + (changed ? (on ? 1 : -1) : 0) };
  }
  const id = target.comment_id;
  const [row] = await tx
    .select({ authorId: comments.userId, likeCount: comments.likeCount })
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
  return { is_success: true, like_count: row.likeCount + (changed ? (on ? 1 : -1) : 0) };
}

/** Who liked a post, newest like first; the cursor is the like's id. */
export async function listLikers(db: Db, postId: number, paging: KeysetRequest, viewerId: number | null): Promise<Page<UserBrief>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const rows = await db
    .select({ id: likes.id, userId: likes.userId })
    .from(likes)
    .where(and(eq(likes.targetType, 'post'), eq(likes.targetId, postId), paging.index ? lt(likes.id, paging.index) : undefined))
    .orderBy(desc(likes.id))
    .limit(size + 1);
  return keysetPage(rows, size, (row) => row.id, async (page) => {
    const briefs = await userBriefs(db, page.map((row) => row.userId), viewerId);
    return page.map((row) => briefs.get(row.userId)!);
  });
}
