/** Timestamps as the platform writes them (seconds or milliseconds) and its readers' clock. Pure. */

/** China Standard Time (UTC+8, no daylight saving), the platform's readers' clock: 今日 of the daily caps, the times of a page the server renders. */
export const CHINA_UTC_OFFSET_MINUTES = 480;

/**
 * Normalises a timestamp to milliseconds: 10 digits are seconds, 13 digits
 * milliseconds, more than 13 digits is an error. Shorter values are read as seconds (dates
 * before September 2001, including 0); 11 and 12 digits are read as milliseconds (a seconds
 * value that long would lie past the year 2286). Fractions are dropped. Throws on negative,
 * non-numeric or non-finite input.
 */
export function toMilliseconds(ts: number | string): number {
  let digits: string;
  if (typeof ts === 'number') {
    if (!Number.isFinite(ts) || ts < 0) throw new Error(`Invalid timestamp: ${ts}`);
    digits = BigInt(Math.floor(ts)).toString();
  } else {
    const match = /^\s*(\d+)(?:\.\d*)?\s*$/.exec(ts);
    if (!match) throw new Error(`Invalid timestamp: ${JSON.stringify(ts)}`);
    digits = match[1]!.replace(/^0+(?=\d)/, '');
  }
  if (digits.length > 13) throw new Error(`Timestamp has more than 13 digits: ${digits}`);
  const value = Number(digits);
  return digits.length <= 10 ? value * 1000 : value;
}
