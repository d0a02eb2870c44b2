/**
 * Complaints about a post, a comment or a user: a reason from COMPLAIN_REASONS (or none) and an
 * optional text. Empty reason and empty text: -2901; text over FEEDBACK_MAX_CHARS user-perceived
 * characters (graphemes, as the client's live counter counts): -2902; a missing or deleted
 * target: -1005; one's own post, comment or self: -1012; a second complaint of the same user about the same target: -1011; more than
 * the daily cap: -2006 (only complaints that were filed count).
 *
 * The complaint that brings a post's or comment's open complaints to `autoHideAt` (distinct
 * users: one complaint each) hides it at once, pending review, in the same transaction
 * (services/moderation.ts, autoHideIfReported).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { FEEDBACK_MAX_CHARS, type ComplainReason } from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import { hasMoreGraphemesThan } from '#shared/text-length.ts';
import type { Db } from '../db/client.ts';
import { comments, complaints, posts, users } from '../db/schema.ts';
import { BusinessError, notFound } from '../errors.ts';
import { hitDailyCap } from './limits/daily-caps.ts';
import { autoHideIfReported } from './moderation.ts';

export interface ComplainInput {
  target_type: 'post' | 'comment' | 'user';
  target_id: number;
  reason: ComplainReason | '';
  content: string;
}

/** The business rules of the text alone (checked before anything is read). */
export function checkComplaintText(reason: string, content: string): string {
  const text = content.trim();
  if (reason === '' && text === '') throw new BusinessError(ErrorCode.FeedbackInvalid);
  // A text this long in UTF-16 units is over the limit whatever it is made of; else the count
  // stops at the first character past the limit.
  if (text.length > FEEDBACK_MAX_CHARS * 64 || hasMoreGraphemesThan(text, FEEDBACK_MAX_CHARS)) {
    throw new BusinessError(ErrorCode.FeedbackTooLong);
  }
  return text;
}

/** Who wrote the target (a user is their own), or undefined when it is missing or deleted. */
async function targetOwner(tx: Db, type: ComplainInput['target_type'], id: number): Promise<number | null | undefined> {
  switch (type) {
    case 'post':
      return (await tx.select({ owner: posts.userId }).from(posts).where(and(eq(posts.id, id), isNull(posts.deletedAt))))[0]?.owner;
    case 'comment':
      return (
        await tx
          .select({ owner: comments.userId })
          .from(comments)
          .innerJoin(posts, eq(posts.id, comments.postId))
          .where(and(eq(comments.id, id), isNull(comments.deletedAt), isNull(posts.deletedAt)))
      )[0]?.owner;
    case 'user':
      return (await tx.select({ owner: users.id }).from(users).where(eq(users.id, id)))[0]?.owner;
  }
}

export interface ComplaintLimits {
  dailyLimit: number;
  /** Distinct users' open complaints that hide a post or comment pending review. */
  autoHideAt: number;
}

export async function addComplaint(tx: Db, userId: number, input: ComplainInput, limits: ComplaintLimits): Promise<{ complain_id: number }> {
  const content = checkComplaintText(input.reason, input.content);
  const owner = await targetOwner(tx, input.target_type, input.target_id);
  if (owner === undefined) throw notFound();
  if (owner === userId) throw new BusinessError(ErrorCode.OwnComplaint);
  const [row] = await tx
    .insert(complaints)
    .values({ userId, targetType: input.target_type, targetId: input.target_id, reason: input.reason, content })
    .onConflictDoNothing()
    .returning({ id: complaints.id });
  if (!row) throw new BusinessError(ErrorCode.AlreadyComplained);
  await hitDailyCap(tx, 'complain', userId, limits.dailyLimit);
  if (input.target_type !== 'user') await autoHideIfReported(tx, input.target_type, input.target_id, limits.autoHideAt);
  return { complain_id: row.id };
}
