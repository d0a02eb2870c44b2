/** Comment reads: top-level comments oldest first, each with its first replies. */
import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Comment, CommentBase } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { comments, likes } from '../db/schema.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';
import { userBriefs } from './users.ts';

type CommentRow = typeof comments.$inferSelect;

const FIRST_REPLIES = 3;

export async function listComments(
  db: Db,
  postId: number,
  paging: KeysetRequest,
  viewerId: number | null,
): Promise<Page<Comment>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const rows = await db
    .select()
    .from(comments)
    .where(
      and(
        eq(comments.postId, postId),
        isNull(comments.rootId),
        isNull(comments.deletedAt),
        paging.index ? gt(comments.id, paging.index) : undefined,
      ),
    )
    .orderBy(asc(comments.id))
    .limit(size + 1);
  return keysetPage(rows, size, (row) => row.id, (page) => hydrateComments(db, page, viewerId));
}

export async function hydrateComments(db: Db, roots: CommentRow[], viewerId: number | null): Promise<Comment[]> {
  if (roots.length === 0) return [];
  const rootIds = roots.map((row) => row.id);
  // The first few replies of each root, in one query.
  const ranked = db.$with('ranked').as(
    db
      .select({
        id: comments.id,
        rank: sql<number>`row_number() over (partition by ${comments.rootId} order by ${comments.id})`.as('rank'),
      })
      .from(comments)
      .where(and(inArray(comments.rootId, rootIds), isNull(comments.deletedAt))),
  );
  const replies = await db
    .with(ranked)
    .select()
    .from(comments)
    .where(inArray(comments.id, db.select({ id: ranked.id }).from(ranked).where(lte(ranked.rank, FIRST_REPLIES))))
    .orderBy(asc(comments.id));
  const all = [...roots, ...replies];
  const [authors, liked] = await Promise.all([
    userBriefs(
      db,
      all.flatMap((row) => (row.replyUserId ? [row.userId, row.replyUserId] : [row.userId])),
      viewerId,
    ),
    viewerId === null
      ? Promise.resolve(new Set<number>())
      : db
          .select({ id: likes.targetId })
          .from(likes)
          .where(
            and(
              eq(likes.userId, viewerId),
              eq(likes.targetType, 'comment'),
              inArray(
                likes.targetId,
                all.map((row) => row.id),
              ),
            ),
          )
          .then((found) => new Set(found.map((like) => like.id))),
  ]);
  const toBase = (row: CommentRow): CommentBase => ({
    id: row.id,
    post_id: row.postId,
    user: authors.get(row.userId)!,
    content: row.content,
    like_count: row.likeCount,
    is_like: liked.has(row.id),
    create_time: row.createdAt.getTime(),
    reply_user: row.replyUserId ? (authors.get(row.replyUserId) ?? null) : null,
  });
  return roots.map((root) => ({
    ...toBase(root),
    reply_count: root.replyCount,
    replies: replies.filter((reply) => reply.rootId === root.id).map(toBase),
  }));
}
