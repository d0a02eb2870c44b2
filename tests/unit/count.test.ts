// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { COUNT_CAP_LABEL, formatCount, formatCountW } from '#shared/count.ts';

describe('formatCount', () => {
  it('shows counts up to 1000 as they are', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1000');
  });

  it('shows thousands with one truncated decimal and drops .0', () => {
    expect(formatCount(1001)).toBe('1k');
    expect(formatCount(1099)).toBe('1k');
    expect(formatCount(1100)).toBe('1.1k');
    expect(formatCount(1550)).toBe('1.5k');
    expect(formatCount(1999)).toBe('1.9k');
    expect(formatCount(2000)).toBe('2k');
    expect(formatCount(12_345)).toBe('12.3k');
    expect(formatCount(99_999)).toBe('99.9k');
  });

  it('caps at 99.9k+ from 100000 on', () => {
    expect(COUNT_CAP_LABEL).toBe('99.9k+');
    expect(formatCount(100_000)).toBe('99.9k+');
    expect(formatCount(100_001)).toBe('99.9k+');
    expect(formatCount(5_000_000)).toBe('99.9k+');
  });

  it('reads bad input as 0 and floors fractions', () => {
    expect(formatCount(-5)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('0');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('0');
    expect(formatCount(12.9)).toBe('12');
  });
});

describe('formatCountW', () => {
  it('uses w for units of 10000, capped at 100w+', () => {
    expect(formatCountW(0)).toBe('0');
    expect(formatCountW(9999)).toBe('9999');
    expect(formatCountW(10_000)).toBe('1w');
    expect(formatCountW(12_345)).toBe('1.2w');
    expect(formatCountW(15_000)).toBe('1.5w');
    expect(formatCountW(999_999)).toBe('99.9w');
    expect(formatCountW(1_000_000)).toBe('100w+');
    expect(formatCountW(123_456_789)).toBe('100w+');
    expect(formatCountW(-1)).toBe('0');
  });
});
