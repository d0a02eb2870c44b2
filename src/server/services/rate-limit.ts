/**
 * Fixed-window counters in the database, so every API process sees the same count. One
 * atomic upsert per hit: no read-then-write race between processes.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { tooFrequent } from '../errors.ts';

/** The counter column is an int4: a count stops where the column ends instead of overflowing it. */
const COUNT_CEILING = 2_147_483_647;

/**
 * Adds `amount` to the window of `key` (a new window when the last one ended) and answers the
 * window's count and the milliseconds it has left.
 */
export async function addToWindow(
  db: Db,
  key: string,
  windowSeconds: number,
  amount = 1,
): Promise<{ count: number; remainingMs: number }> {
  const windowExpired = sql`${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, count: Math.min(amount, COUNT_CEILING) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowExpired} then ${Math.min(amount, COUNT_CEILING)}::int
          else least(${rateLimits.count}::bigint + ${amount}, ${COUNT_CEILING})::int end`,
        windowStart: sql`case when ${windowExpired} then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      elapsedMs: sql<number>`(extract(epoch from (now() - ${rateLimits.windowStart})) * 1000)::float8`,
    });
  return { count: row?.count ?? amount, remainingMs: Math.max(0, windowSeconds * 1000 - Number(row?.elapsedMs ?? 0)) };
}

/** Counts a hit (of `amount`, 1 by default) on `key`; beyond `max`, -2005 with the seconds until the window ends. */
export async function enforceRateLimit(db: Db, key: string, windowSeconds: number, max: number, amount = 1): Promise<void> {
  const { count, remainingMs } = await addToWindow(db, key, windowSeconds, amount);
  if (count > max) throw tooFrequent(remainingMs);
}

/** Counts a hit (of `amount`, 1 by default) on `key`; true while the window's count is within `max`. */
export async function hitRateLimit(db: Db, key: string, windowSeconds: number, max: number, amount = 1): Promise<boolean> {
  return (await addToWindow(db, key, windowSeconds, amount)).count <= max;
}
