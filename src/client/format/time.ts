/**
 * Readable times (SPEC.md section 9), in the reader's local time zone (on the server, the
 * platform's readers': renderTimesOnServer).
 */
import dayjs, { type Dayjs } from 'dayjs';
import { toMilliseconds } from '#shared/format.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** An instant as the reader's clock shows it. */
let wallTime = (ms: number): Dayjs => dayjs(ms);

/**
 * The server's render of a first screen (app/first-screen.server.tsx) shows the times of a clock
 * `utcOffsetMinutes` from UTC, not the server's own: what the reader's will show once the app
 * starts, for the platform's readers.
 */
export function renderTimesOnServer(utcOffsetMinutes: number): void {
  wallTime = (ms) => {
    const local = dayjs(ms);
    return local.add(utcOffsetMinutes - local.utcOffset(), 'minute');
  };
}

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
export function readableTime(ts: number | string, now: number = Date.now()): string {
  const ms = normalise(ts);
  if (ms === null) return '';
  const diff = now - ms;
  if (diff < MINUTE_MS && diff > -MINUTE_MS) return '刚刚';
  const then = wallTime(ms);
  const today = wallTime(now);
  if (diff > 0) {
    if (diff < HOUR_MS) return `${Math.floor(diff / MINUTE_MS)}分钟前`;
    if (then.isSame(today, 'day')) return `${Math.floor(diff / HOUR_MS)}小时前`;
    if (then.isSame(today.subtract(1, 'day'), 'day')) return `昨天 ${then.format('HH:mm')}`;
  }
  return then.isSame(today, 'year') ? then.format('MM-DD') : then.format('YYYY-MM-DD');
}

/** The full local time, `YYYY-MM-DD HH:mm`; `''` when unreadable. */
export function fullTime(ts: number | string): string {
  const ms = normalise(ts);
  return ms === null ? '' : wallTime(ms).format('YYYY-MM-DD HH:mm');
}
