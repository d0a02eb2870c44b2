// @vitest-environment node
/**
 * The times of a page the server renders (src/client/format/time.ts): read by the platform's
 * readers' clock (China Standard Time), whatever the server's own time zone, and by the instant
 * it rendered, so the client's hydration writes the same text.
 */
import { describe, expect, it } from 'vitest';
import { CHINA_UTC_OFFSET_MINUTES } from '../../src/shared/timestamp.ts';
import { fullTime, readableTime } from '../../src/client/format/time.ts';

const CHINA = CHINA_UTC_OFFSET_MINUTES;

describe('times read by the first screen clock', () => {
  it('are China Standard Time, days and all, in any time zone of the machine', () => {
    expect(fullTime(Date.UTC(2026, 10, 24, 7, 55), CHINA)).toBe('2026-11-24 15:55');
    // 23:00 on the 24th in Beijing, seen at 01:00 on the 25th (the same UTC day: 2小时前 by a UTC clock).
    expect(readableTime(Date.UTC(2026, 10, 24, 15, 0), Date.UTC(2026, 10, 24, 17, 0), CHINA)).toBe('昨天 23:00');
    // 19:00 on 31 December in UTC is already the new year in Beijing.
    expect(readableTime(Date.UTC(2026, 0, 2, 0, 0), Date.UTC(2026, 11, 31, 19, 0), CHINA)).toBe('2026-01-02');
    expect(readableTime(Date.UTC(2026, 2, 7, 0, 0), Date.UTC(2026, 11, 31, 12, 0), CHINA)).toBe('03-07');
  });

  it('by the machine own zone without one', () => {
    const local = new Date(2026, 10, 24, 7, 55).getTime();
    expect(fullTime(local)).toBe('2026-11-24 07:55');
  });
});
