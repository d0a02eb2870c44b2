import { and, eq, isNull, or } from 'drizzle-orm';
import type { CodeSnippet } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { codeSnippets, posts } from '../db/schema.ts';
import { notFound } from '../errors.ts';

/** A snippet of a live post; of a hidden post, to its author alone (viewerId). */
export async function getCodeSnippet(db: Db, postId: number, uuid: string, viewerId: number | null = null): Promise<CodeSnippet> {
  const [row] = await db
    .select({
      uuid: codeSnippets.uuid,
      post_id: codeSnippets.postId,
      language: codeSnippets.language,
      title: codeSnippets.title,
      code: codeSnippets.code,
    })
    .from(codeSnippets)
    .innerJoin(posts, eq(posts.id, codeSnippets.postId))
    .where(
      and(
        eq(codeSnippets.uuid, uuid),
        eq(codeSnippets.postId, postId),
        isNull(posts.deletedAt),
        viewerId === null ? isNull(posts.hiddenAt) : or(isNull(posts.hiddenAt), eq(posts.userId, viewerId)),
      ),
    )
    .limit(1);
  if (!row) throw notFound('代码');
  return row;
}
