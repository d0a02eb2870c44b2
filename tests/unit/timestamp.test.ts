// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { toMilliseconds } from '#shared/timestamp.ts';

describe('toMilliseconds', () => {
  it('reads 10 digits as seconds and 13 as milliseconds', () => {
    expect(toMilliseconds(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMilliseconds('1700000000')).toBe(1_700_000_000_000);
    expect(toMilliseconds(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(toMilliseconds('1700000000123')).toBe(1_700_000_000_123);
  });

  it('throws on more than 13 digits', () => {
    expect(() => toMilliseconds(17_000_000_001_234)).toThrow(/13 digits/);
    expect(() => toMilliseconds('17000000001234')).toThrow(/13 digits/);
    expect(() => toMilliseconds(1e21)).toThrow(/13 digits/);
  });

  it('reads shorter values as seconds and 11-12 digits as milliseconds', () => {
    expect(toMilliseconds(0)).toBe(0);
    expect(toMilliseconds(86_400)).toBe(86_400_000);
    expect(toMilliseconds(123_456_789_012)).toBe(123_456_789_012);
  });

  it('drops fractions and surrounding spaces, rejects garbage', () => {
    expect(toMilliseconds(1_700_000_000.9)).toBe(1_700_000_000_000);
    expect(toMilliseconds(' 1700000000 ')).toBe(1_700_000_000_000);
    expect(() => toMilliseconds(-1)).toThrow();
    expect(() => toMilliseconds(Number.NaN)).toThrow();
    expect(() => toMilliseconds('abc')).toThrow();
    expect(() => toMilliseconds('')).toThrow();
    expect(() => toMilliseconds('-1700000000')).toThrow();
  });
});
