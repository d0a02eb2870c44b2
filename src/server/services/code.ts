import { and, eq, isNull } from 'drizzle-orm';
import type { CodeSnippet } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { codeSnippets, posts } from '../db/schema.ts';
import { notFound } from '../errors.ts';

export async function getCodeSnippet(db: Db, postId: number, uuid: string): Promise<CodeSnippet> {
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
    .where(and(eq(codeSnippets.uuid, uuid), eq(codeSnippets.postId, postId), isNull(posts.deletedAt)))
    .limit(1);
  if (!row) throw notFound('代码');
  return row;
}
