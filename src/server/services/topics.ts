/** Topics: the list (most posts first) and one topic. Posts of a topic come from posts.ts. */
import { desc, eq } from 'drizzle-orm';
import type { TopicDetail } from '#shared/schemas.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import type { Db } from '../db/client.ts';
import { topics } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import type { KeysetRequest, Page } from './paging.ts';

type TopicRow = typeof topics.$inferSelect;

export const toDetail = (row: Pick<TopicRow, 'id' | 'name' | 'intro' | 'cover' | 'postCount'>): TopicDetail => ({
  topic_id: row.id,
  topic_name: row.name,
  intro: row.intro,
  cover: row.cover,
  post_count: row.postCount,
});

/**
 * Ordered by post count, then id; the cursor is the position in that order because a count
 * changes under a reader. Topics are a short, curated list, so the offset stays small.
 */
export async function listTopics(db: Db, paging: KeysetRequest): Promise<Page<TopicDetail>> {
  const size = paging.size ?? DEFAULT_PAGE_SIZE;
  const offset = paging.index ?? 0;
  const rows = await db
    .select()
    .from(topics)
    .orderBy(desc(topics.postCount), desc(topics.id))
    .limit(size + 1)
    .offset(offset);
  const more = rows.length > size;
  const list = rows.slice(0, size).map(toDetail);
  return { list, page: { more, next_index: offset + list.length } };
}

export async function getTopic(db: Db, topicId: number): Promise<TopicDetail> {
  const [row] = await db.select().from(topics).where(eq(topics.id, topicId)).limit(1);
  if (!row) throw notFound('话题');
  return toDetail(row);
}
