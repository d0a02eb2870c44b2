/**
 * Readable times, in the reader's local time zone; a page the server rendered shows the platform
 * readers' (China Standard Time) until the client has hydrated it.
 */
import { startTransition, useEffect, useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { toMilliseconds } from '#shared/timestamp.ts';
import { useMountedInFirstScreen } from '../lib/first-screen-render.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A clock to read times by: the instant taken as now and the reader's offset from UTC. */
export interface ReadingClock {
  readonly now: number;
  readonly utcOffsetMinutes: number;
}

/**
 * The clock the server's render of a first screen (app/first-screen.server.tsx) reads times by,
 * and so the client's hydration of it: both must write the same text. Set by the server for
 * each render, and by the client from the page before it hydrates; read only by what mounts in
 * that screen (useReadingClock).
 */
let firstScreenClock: ReadingClock | null = null;

export function readFirstScreenBy(clock: ReadingClock | null): void {
  firstScreenClock = clock;
}

/**
 * null: the reader's own clock. In what mounts in the first screen (the server's render, the
 * client's hydration of it), that screen's clock; a card mounted later has the reader's. A reader in the platform's time zone keeps it: its
 * times are as of that render, as a card's are as of its first showing (PostCard's facts). A
 * reader elsewhere gets their own zone's times in a render in the background once hydrated,
 * card by card: a store's snapshot would render every card again at once, in one long task.
 */
export function useReadingClock(): ReadingClock | null {
  const mountedInFirstScreen = useMountedInFirstScreen();
  const [clock, setClock] = useState(() => (mountedInFirstScreen ? firstScreenClock : null));
  useEffect(() => {
    if (clock && clock.utcOffsetMinutes !== -new Date().getTimezoneOffset()) startTransition(() => setClock(null));
  }, [clock]);
  return clock;
}

/** An instant as a clock `utcOffsetMinutes` from UTC shows it; the reader's own without one. */
function wallTime(ms: number, utcOffsetMinutes: number | undefined): Dayjs {
  const local = dayjs(ms);
  return utcOffsetMinutes === undefined ? local : local.add(utcOffsetMinutes - local.utcOffset(), 'minute');
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
 * `ts` may be milliseconds or seconds (10 digits); an unreadable value gives `''`. By the
 * reader's clock, or by the one `now` and `utcOffsetMinutes` give (useReadingClock).
 */
export function readableTime(ts: number | string, now: number = Date.now(), utcOffsetMinutes?: number): string {
  const ms = normalise(ts);
  if (ms === null) return '';
  const diff = now - ms;
  if (diff < MINUTE_MS && diff > -MINUTE_MS) return '刚刚';
  const then = wallTime(ms, utcOffsetMinutes);
  const today = wallTime(now, utcOffsetMinutes);
  if (diff > 0) {
    if (diff < HOUR_MS) return `${Math.floor(diff / MINUTE_MS)}分钟前`;
    if (then.isSame(today, 'day')) return `${Math.floor(diff / HOUR_MS)}小时前`;
    if (then.isSame(today.subtract(1, 'day'), 'day')) return `昨天 ${then.format('HH:mm')}`;
  }
  return then.isSame(today, 'year') ? then.format('MM-DD') : then.format('YYYY-MM-DD');
}

/** The full time, `YYYY-MM-DD HH:mm`, local or `utcOffsetMinutes` from UTC; `''` when unreadable. */
export function fullTime(ts: number | string, utcOffsetMinutes?: number): string {
  const ms = normalise(ts);
  return ms === null ? '' : wallTime(ms, utcOffsetMinutes).format('YYYY-MM-DD HH:mm');
}
