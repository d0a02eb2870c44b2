/**
 * Daily caps, per user and China day, on every write that stores text or pictures: posts,
 * comments, notes, nicknames, complaints and image uploads (-2006 今日操作已达上限). Counted in the
 * database (window-counters.ts) so every API process shares them, as is the write rate per user
 * per minute (-2005 请求频繁, counted by services/once.ts).
 */
import { ErrorCode } from '#shared/errors.ts';
import { CHINA_UTC_OFFSET_MINUTES } from '#shared/timestamp.ts';
import type { Db } from '../../db/client.ts';
import { BusinessError } from '../../errors.ts';
import { hitRateLimit } from './window-counters.ts';

/** What a daily cap counts. */
export type DailyKind = 'complain' | 'post' | 'upload' | 'comment' | 'note' | 'nick';

/** The calendar day in China Standard Time (UTC+8, no daylight saving): 今日 of the platform's users. */
export function chinaDay(now: Date = new Date()): string {
  return new Date(now.getTime() + CHINA_UTC_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}

/** A daily cap's window: the key names the China day, so a new day starts a new count; the window only has to outlast it. */
export const DAILY_WINDOW_SECONDS = 2 * 86_400;

export const dailyCapKey = (kind: DailyKind, userId: number, now: Date = new Date()) => `daily:${kind}:${userId}:${chinaDay(now)}`;

/**
 * Counts one `kind` of the user today; -2006 beyond `max`. Call it inside the transaction of
 * the write, after the write's own checks: a write that fails (and rolls back) is not counted.
 */
export async function hitDailyCap(tx: Db, kind: DailyKind, userId: number, max: number, now: Date = new Date()): Promise<void> {
  if (!(await hitRateLimit(tx, dailyCapKey(kind, userId, now), DAILY_WINDOW_SECONDS, max))) {
    throw new BusinessError(ErrorCode.DailyLimit);
  }
}
