/**
 * Voting on a post's poll: single or multiple choice as the poll says, options of that poll
 * only, once per user, not after end_time. The poll row is locked for the whole vote, so the
 * once-per-user check and the counts are exact under concurrent votes.
 */
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { ErrorCode } from '#shared/errors.ts';
import type { Vote } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { posts, voteOptions, voteRecords, votes } from '../db/schema.ts';
import { BusinessError, notFound } from '../errors.ts';

export async function submitVote(tx: Db, userId: number, postId: number, optionIds: number[], now = new Date()): Promise<Vote> {
  const [post] = await tx
    .select({ id: posts.id })
    .from(posts)
    // A hidden post is its author's alone.
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt), or(isNull(posts.hiddenAt), eq(posts.userId, userId))));
  if (!post) throw notFound('动态');
  const [vote] = await tx.select().from(votes).where(eq(votes.postId, postId)).for('update');
  if (!vote) throw notFound('投票');
  if (vote.endTime && vote.endTime.getTime() <= now.getTime()) throw new BusinessError(ErrorCode.VoteClosed);
  const chosen = [...new Set(optionIds)];
  if (!vote.multiple && chosen.length > 1) throw new BusinessError(ErrorCode.BadRequest, '这是单选投票，只能选择一个选项');
  const own = await tx
    .select({ id: voteOptions.id })
    .from(voteOptions)
    .where(and(eq(voteOptions.voteId, vote.id), inArray(voteOptions.id, chosen)));
  if (own.length !== chosen.length) throw new BusinessError(ErrorCode.BadRequest, '投票选项不属于这个投票');
  const [already] = await tx
    .select({ one: sql<number>`1` })
    .from(voteRecords)
    .where(and(eq(voteRecords.voteId, vote.id), eq(voteRecords.userId, userId)))
    .limit(1);
  if (already) throw new BusinessError(ErrorCode.AlreadyVoted);
  await tx.insert(voteRecords).values(chosen.map((optionId) => ({ voteId: vote.id, userId, optionId })));
  await tx
    .update(voteOptions)
    .set({ count: sql`${voteOptions.count} + 1` })
    .where(inArray(voteOptions.id, chosen));
  await tx
    .update(votes)
    .set({ total: sql`${votes.total} + 1` })
    .where(eq(votes.id, vote.id));
  return readVote(tx, vote.id, userId);
}

/** A poll as the post shows it, with the viewer's choices. */
export async function readVote(db: Db, voteId: number, viewerId: number | null): Promise<Vote> {
  const [vote] = await db.select().from(votes).where(eq(votes.id, voteId));
  if (!vote) throw notFound('投票');
  // Sequential: `db` is usually the vote's transaction (one connection, one query at a time).
  const options = await db
    .select()
    .from(voteOptions)
    .where(eq(voteOptions.voteId, voteId))
    .orderBy(asc(voteOptions.sort), asc(voteOptions.id));
  const mine =
    viewerId === null
      ? []
      : await db
          .select({ optionId: voteRecords.optionId })
          .from(voteRecords)
          .where(and(eq(voteRecords.voteId, voteId), eq(voteRecords.userId, viewerId)));
  const voted = new Set(mine.map((row) => row.optionId));
  return {
    vote_id: vote.id,
    title: vote.title,
    multiple: vote.multiple,
    end_time: vote.endTime ? vote.endTime.getTime() : null,
    total: vote.total,
    is_voted: voted.size > 0,
    options: options.map((option) => ({
      option_id: option.id,
      text: option.text,
      count: option.count,
      is_voted: voted.has(option.id),
    })),
  };
}
