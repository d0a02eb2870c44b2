/**
 * Readable times (SPEC.md section 9), in the reader's local time zone. The platform's Date does
 * the calendar (days, years, midnight in the local zone); a date library would cost the first
 * screen about 3 kB for the same five fields.
 */
import { toMilliseconds } from '#shared/format.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A timestamp in seconds or milliseconds (see toMilliseconds), or null when unreadable. */
function normalise(ts: number | string): number | null {
  try {
    return toMilliseconds(ts);
  } catch {
    return null;
  }
}

/**
 * A post or comment time as a feed shows it:
 * - less than a minute ago (or up to a minute in the future, for clock skew): `刚刚`
 * - less than an hour ago: `N分钟前`
 * - earlier the same calendar day: `N小时前`
 * - the calendar day before: `昨天 HH:mm`
 * - earlier this year: `MM-DD` (e.g. `03-07`)
 * - another year (or further in the future): `YYYY-MM-DD`
 * `ts` may be milliseconds or seconds (10 digits); an unreadable value gives `''`.
 */
const pad = (n: number) => String(n).padStart(2, '0');
const monthDay = (d: Date) => `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const hourMinute = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const date = (d: Date) => `${d.getFullYear()}-${monthDay(d)}`;
/** The same local calendar day. */
const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

export function readableTime(ts: number | string, now: number = Date.now()): string {
  const ms = normalise(ts);
  if (ms === null) return '';
  const diff = now - ms;
  if (diff < MINUTE_MS && diff > -MINUTE_MS) return '刚刚';
  const then = new Date(ms);
  const today = new Date(now);
  if (diff > 0) {
    if (diff < HOUR_MS) return `${Math.floor(diff / MINUTE_MS)}分钟前`;
    if (sameDay(then, today)) return `${Math.floor(diff / HOUR_MS)}小时前`;
    const yesterday = new Date(now);
    yesterday.setDate(yesterday.getDate() - 1);
    if (sameDay(then, yesterday)) return `昨天 ${hourMinute(then)}`;
  }
  return then.getFullYear() === today.getFullYear() ? monthDay(then) : date(then);
}

/** The full local time, `YYYY-MM-DD HH:mm`; `''` when unreadable. */
export function fullTime(ts: number | string): string {
  const ms = normalise(ts);
  return ms === null ? '' : `${date(new Date(ms))} ${hourMinute(new Date(ms))}`;
}
