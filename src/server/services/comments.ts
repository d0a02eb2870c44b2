/**
 * Comments: top-level comments oldest first, each with its first replies; writing and deleting
 * them. Replies are stored flat under their root (root_id) with reply_user set to the author
 * they answer. A deleted comment leaves the list, except a top-level one that still has live
 * replies: it keeps its place as is_deleted with content '' (该评论已删除).
 *
 * Counters: posts.comment_count counts live comments and replies; comments.reply_count the
 * live replies of a root; the author's users.like_count the likes of live comments. Every write
 * locks the post row first (then comments, then users), so writes of one post never deadlock.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Comment, CommentBase } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { comments, likes, posts, users } from '../db/schema.ts';
import { BusinessError, forbidden, notFound } from '../errors.ts';
import { ErrorCode } from '#shared/errors.ts';
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
        or(isNull(comments.deletedAt), gt(comments.replyCount, 0)),
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
  // Sequential: `db` may be a transaction (comment/add answers through here).
  const authors = await userBriefs(
    db,
    all.flatMap((row) => (row.replyUserId ? [row.userId, row.replyUserId] : [row.userId])),
    viewerId,
  );
  const liked =
    viewerId === null
      ? new Set<number>()
      : await db
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
          .then((found) => new Set(found.map((like) => like.id)));
  const toBase = (row: CommentRow): CommentBase => ({
    id: row.id,
    post_id: row.postId,
    user: authors.get(row.userId)!,
    content: row.deletedAt ? '' : row.content,
    like_count: row.likeCount,
    is_like: liked.has(row.id),
    create_time: row.createdAt.getTime(),
    reply_user: row.replyUserId ? (authors.get(row.replyUserId) ?? null) : null,
    is_deleted: row.deletedAt !== null,
  });
  return roots.map((root) => ({
    ...toBase(root),
    reply_count: root.replyCount,
    replies: replies.filter((reply) => reply.rootId === root.id).map(toBase),
  }));
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

/** Writes a comment, or a reply to a comment or reply of the same post; answers it as the list shows it. */
export async function addComment(tx: Db, userId: number, input: CommentAddInput): Promise<Comment> {
  await lockLivePost(tx, input.post_id);
  let rootId: number | null = null;
  let replyUserId: number | null = null;
  if (input.reply_id !== undefined) {
    const [answered] = await tx
      .select()
      .from(comments)
      .where(and(eq(comments.id, input.reply_id), isNull(comments.deletedAt)))
      .for('update');
    if (!answered) throw notFound('评论');
    if (answered.postId !== input.post_id) throw new BusinessError(ErrorCode.BadRequest, '回复的评论不属于这条动态');
    rootId = answered.rootId ?? answered.id;
    replyUserId = answered.userId;
  }
  const [row] = await tx
    .insert(comments)
    .values({ postId: input.post_id, userId, rootId, replyUserId, content: input.content })
    .returning();
  await tx
    .update(posts)
    .set({ commentCount: sql`${posts.commentCount} + 1` })
    .where(eq(posts.id, input.post_id));
  if (rootId !== null) {
    await tx
      .update(comments)
      .set({ replyCount: sql`${comments.replyCount} + 1` })
      .where(eq(comments.id, rootId));
  }
  const [comment] = await hydrateComments(tx, [row!], userId);
  return comment!;
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
  await tx.update(comments).set({ deletedAt: sql`now()` }).where(eq(comments.id, commentId));
  await tx
    .update(posts)
    .set({ commentCount: sql`${posts.commentCount} - 1` })
    .where(eq(posts.id, comment.postId));
  if (comment.rootId !== null) {
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
