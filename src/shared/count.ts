/** Like, comment and follower counts as the feed shows them. Pure. */

/** The label shown for counts past the `k` range (100000 and above). */
export const COUNT_CAP_LABEL = '99.9k+';
/** The label shown for counts past the `w` range. */
export const COUNT_W_CAP_LABEL = '100w+';

/** A non-negative whole count; anything else (NaN, negative, Infinity) reads as 0. */
function wholeCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** `value / unit` truncated (never rounded up) to one decimal, with a trailing `.0` dropped. */
function oneDecimal(value: number, unit: number): string {
  const tenths = Math.floor((value * 10) / unit);
  const whole = Math.floor(tenths / 10);
  const decimal = tenths % 10;
  return decimal === 0 ? String(whole) : `${whole}.${decimal}`;
}

/**
 * Like, comment and follower counts.
 * - 0..1000: as is (`'1000'`).
 * - 1001..99999: thousands with one decimal, truncated so a count is never overstated, and
 *   a trailing `.0` dropped: 1001 -> `'1k'`, 1550 -> `'1.5k'`, 99999 -> `'99.9k'`.
 * - 100000 and above: `'99.9k+'`. (100000 itself is shown as the cap rather than `'100k'`,
 *   which would read larger than the cap label and make the display non-monotonic.)
 */
export function formatCount(n: number): string {
  const count = wholeCount(n);
  if (count <= 1000) return String(count);
  if (count < 100_000) return `${oneDecimal(count, 1000)}k`;
  return COUNT_CAP_LABEL;
}

/**
 * The alternate count format with `w` (万, units of 10000).
 * - 0..9999: as is.
 * - 10000..999999: tens of thousands with one decimal, truncated, trailing `.0` dropped:
 *   10000 -> `'1w'`, 12345 -> `'1.2w'`, 999999 -> `'99.9w'`.
 * - 1000000 and above: `'100w+'`.
 */
export function formatCountW(n: number): string {
  const count = wholeCount(n);
  if (count < 10_000) return String(count);
  if (count < 1_000_000) return `${oneDecimal(count, 10_000)}w`;
  return COUNT_W_CAP_LABEL;
}
