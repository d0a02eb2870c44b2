/**
 * Fixtures shared by the API tests of writes. A test user may get a post of their own by taking
 * over a seeded one (givePost, with every counter moved along: the seeded post keeps its likes,
 * comments and topics), or write one through post/add (tests/api/post-add.test.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.ts';
import { queryRows } from '../support/db.ts';

/** Makes `userId` the author of post `postId`, moving the post and like counts of both authors. */
export async function givePost(db: Db, userId: number, postId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [post] = await queryRows<{ user_id: number; like_count: number; live: boolean }>(
      tx,
      sql`select user_id, like_count, deleted_at is null as live from posts where id = ${postId} for update`,
    );
    if (!post) throw new Error(`givePost: no post ${postId}`);
    if (!post.live) throw new Error(`givePost: post ${postId} is deleted`);
    await tx.execute(sql`update users set post_count = post_count - 1, like_count = like_count - ${post.like_count} where id = ${post.user_id}`);
    await tx.execute(sql`update users set post_count = post_count + 1, like_count = like_count + ${post.like_count} where id = ${userId}`);
    await tx.execute(sql`update posts set user_id = ${userId} where id = ${postId}`);
  });
}

/**
 * A live post with a poll (single or multiple choice), chosen by `pick` among them (ordered by
 * post id), its poll opened (end_time cleared) for the test.
 */
export async function postWithVote(db: Db, multiple: boolean, pick = 0): Promise<{ postId: number; voteId: number; options: number[] }> {
  const rows = await queryRows<{ post_id: number; vote_id: number }>(
    db,
    sql`select v.post_id::int as post_id, v.id as vote_id from votes v join posts p on p.id = v.post_id
      where p.deleted_at is null and v.multiple = ${multiple} order by v.post_id`,
  );
  const row = rows[pick];
  if (!row) throw new Error(`postWithVote: no ${multiple ? 'multiple' : 'single'}-choice vote #${pick}`);
  await db.execute(sql`update votes set end_time = null where id = ${row.vote_id}`);
  const options = await queryRows<{ id: number }>(db, sql`select id from vote_options where vote_id = ${row.vote_id} order by sort, id`);
  return { postId: row.post_id, voteId: row.vote_id, options: options.map((o) => o.id) };
}
