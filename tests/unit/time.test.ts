// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fullTime, readableTime } from '../../src/client/format/time.ts';

/** Local time, so the tests hold in any time zone. */
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => new Date(y, mo - 1, d, h, mi, s).getTime();

describe('readableTime', () => {
  const now = at(2024, 6, 15, 18, 30);

  it('says 刚刚 under a minute (and for slight clock skew)', () => {
    expect(readableTime(now, now)).toBe('刚刚');
    expect(readableTime(now - 59_999, now)).toBe('刚刚');
    expect(readableTime(now + 30_000, now)).toBe('刚刚');
  });

  it('counts minutes under an hour', () => {
    expect(readableTime(now - 60_000, now)).toBe('1分钟前');
    expect(readableTime(now - 59 * 60_000 - 59_000, now)).toBe('59分钟前');
  });

  it('counts hours earlier the same day', () => {
    expect(readableTime(now - 60 * 60_000, now)).toBe('1小时前');
    expect(readableTime(at(2024, 6, 15, 0, 0), now)).toBe('18小时前');
  });

  it('shows 昨天 HH:mm for the day before', () => {
    expect(readableTime(at(2024, 6, 14, 23, 59), now)).toBe('昨天 23:59');
    expect(readableTime(at(2024, 6, 14, 8, 5), now)).toBe('昨天 08:05');
    // under an hour ago but across midnight: minutes still win
    const justAfterMidnight = at(2024, 6, 15, 0, 10);
    expect(readableTime(at(2024, 6, 14, 23, 50), justAfterMidnight)).toBe('20分钟前');
    // over an hour ago across midnight: yesterday
    expect(readableTime(at(2024, 6, 14, 22, 0), justAfterMidnight)).toBe('昨天 22:00');
  });

  it('shows MM-DD earlier this year and YYYY-MM-DD in other years', () => {
    expect(readableTime(at(2024, 6, 13, 12, 0), now)).toBe('06-13');
    expect(readableTime(at(2024, 1, 1, 0, 0), now)).toBe('01-01');
    expect(readableTime(at(2023, 12, 31, 23, 0), now)).toBe('2023-12-31');
    expect(readableTime(at(2023, 12, 31, 23, 0), at(2024, 1, 1, 10, 0))).toBe('昨天 23:00');
  });

  it('shows a date for times further in the future', () => {
    expect(readableTime(at(2024, 7, 1, 9, 0), now)).toBe('07-01');
    expect(readableTime(at(2025, 7, 1, 9, 0), now)).toBe('2025-07-01');
  });

  it('accepts seconds and numeric strings, and gives "" for unreadable input', () => {
    expect(readableTime(Math.floor((now - 5 * 60_000) / 1000), now)).toBe('5分钟前');
    expect(readableTime(String(now - 2 * 60_000), now)).toBe('2分钟前');
    expect(readableTime('oops', now)).toBe('');
    expect(readableTime(12_345_678_901_234, now)).toBe('');
  });
});

describe('fullTime', () => {
  it('formats YYYY-MM-DD HH:mm', () => {
    expect(fullTime(at(2024, 3, 7, 9, 5, 59))).toBe('2024-03-07 09:05');
    expect(fullTime(at(2024, 3, 7, 9, 5) / 1000)).toBe('2024-03-07 09:05');
    expect(fullTime('x')).toBe('');
  });
});
