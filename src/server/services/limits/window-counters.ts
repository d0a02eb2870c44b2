/**
 * Fixed-window counters in the database, so every API process sees the same count: what every
 * limit kept in the database counts with (the daily caps, the write rate, the request budget,
 * login codes, uploads, tracking bytes). One atomic upsert per hit: no read-then-write race
 * between processes.
 */
import type { Db } from '../../db/client.ts';
import { boundText, preparedStatement, queryPrepared } from '../../db/prepared.ts';
import { tooFrequent } from '../../errors.ts';

/** The counter column is an int4: a count stops where the column ends instead of overflowing it. */
const COUNT_CEILING = 2_147_483_647;

/**
 * The upsert of one hit of `amount` on the window of `key`, `seconds` long (each a placeholder or
 * expression of the caller's statement), made only for the rows of `from` (a FROM clause, or ''
 * for one hit): a new window when the last one ended. Returns the window's count and the
 * milliseconds since it began (elapsed_ms).
 */
export function windowHitText(key: string, seconds: string, amount: string, from = ''): string {
  const expired = `rate_limits.window_start <= now() - make_interval(secs => ${seconds})`;
  return `insert into rate_limits (key, window_start, count) select ${key}, now(), least(${amount}, ${COUNT_CEILING}) ${from}
    on conflict (key) do update set
      count = case when ${expired} then least(${amount}, ${COUNT_CEILING})
        else least(rate_limits.count::bigint + ${amount}, ${COUNT_CEILING})::int end,
      window_start = case when ${expired} then now() else rate_limits.window_start end
    returning count, (extract(epoch from (now() - window_start)) * 1000)::float8 as elapsed_ms`;
}

const windowHit = preparedStatement('rate_window_hit', ['text', 'int', 'int'], windowHitText('$1', '$2', '$3'));

/** The count and the milliseconds left of a window after a hit, from windowHitText's row. */
export const windowAfterHit = (row: { count: number; elapsed_ms: number }, windowSeconds: number) => ({
  count: row.count,
  remainingMs: Math.max(0, windowSeconds * 1000 - Number(row.elapsed_ms)),
});

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
  const [row] = await queryPrepared<{ count: number; elapsed_ms: number }>(db, windowHit, [
    boundText(key),
    windowSeconds,
    Math.min(amount, COUNT_CEILING),
  ]);
  return row ? windowAfterHit(row, windowSeconds) : { count: amount, remainingMs: windowSeconds * 1000 };
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
