/** Who liked a post, latest first. */
import { and, desc, eq, lt } from 'drizzle-orm';
import type { UserBrief } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { likes } from '../db/schema.ts';
import { keysetPage, type KeysetRequest, type Page } from './paging.ts';
import { userBriefs } from './users.ts';

/** The cursor is the liker's user id: likes of one post are unique per user. */
export async function listLikers(db: Db, postId: number, paging: KeysetRequest, viewerId: number | null): Promise<Page<UserBrief>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const rows = await db
    .select({ userId: likes.userId })
    .from(likes)
    .where(
      and(eq(likes.targetType, 'post'), eq(likes.targetId, postId), paging.index ? lt(likes.userId, paging.index) : undefined),
    )
    .orderBy(desc(likes.userId))
    .limit(size + 1);
  return keysetPage(rows, size, (row) => row.userId, async (page) => {
    const briefs = await userBriefs(db, page.map((row) => row.userId), viewerId);
    return page.map((row) => briefs.get(row.userId)!);
  });
}
