/**
 * The times of a page the server renders (src/client/format/time.ts, renderTimesOnServer): the
 * platform's readers' clock (China Standard Time), whatever the server's own time zone, so the
 * client's render does not change them for those readers. Its own file: the setting is the module's.
 */
import { describe, expect, it } from 'vitest';
import { CHINA_UTC_OFFSET_MINUTES } from '../../src/shared/format.ts';
import { fullTime, readableTime, renderTimesOnServer } from '../../src/client/format/time.ts';

describe('times rendered on the server', () => {
  it('are China Standard Time, days and all, in any server time zone', () => {
    renderTimesOnServer(CHINA_UTC_OFFSET_MINUTES);
    expect(fullTime(Date.UTC(2026, 10, 24, 7, 55))).toBe('2026-11-24 15:55');
    // 23:00 on the 24th in Beijing, seen at 01:00 on the 25th (the same UTC day: 2小时前 by a UTC clock).
    expect(readableTime(Date.UTC(2026, 10, 24, 15, 0), Date.UTC(2026, 10, 24, 17, 0))).toBe('昨天 23:00');
    // 19:00 on 31 December in UTC is already the new year in Beijing.
    expect(readableTime(Date.UTC(2026, 0, 2, 0, 0), Date.UTC(2026, 11, 31, 19, 0))).toBe('2026-01-02');
    expect(readableTime(Date.UTC(2026, 2, 7, 0, 0), Date.UTC(2026, 11, 31, 12, 0))).toBe('03-07');
  });
});
