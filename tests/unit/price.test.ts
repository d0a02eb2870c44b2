// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatPrice } from '#shared/price.ts';

describe('formatPrice', () => {
  it('divides cents by 100 without trailing zeros', () => {
    expect(formatPrice(9900)).toBe('99');
    expect(formatPrice(990)).toBe('9.9');
    expect(formatPrice(1)).toBe('0.01');
    expect(formatPrice(10)).toBe('0.1');
    expect(formatPrice(0)).toBe('0');
    expect(formatPrice(12_345)).toBe('123.45');
    expect(formatPrice(100_005)).toBe('1000.05');
    expect(formatPrice(-250)).toBe('-2.5');
    expect(formatPrice(99.6)).toBe('1');
  });
});
