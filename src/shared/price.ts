/** Prices as the platform shows them. Pure. */

/**
 * A price in cents as yuan (cents divided by 100) with no trailing zeros:
 * 9900 -> `'99'`, 990 -> `'9.9'`, 1 -> `'0.01'`, 12345 -> `'123.45'`. Fractions of a cent are
 * rounded; non-finite input reads as 0.
 */
export function formatPrice(cents: number): string {
  const whole = Number.isFinite(cents) ? Math.round(cents) : 0;
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const yuan = Math.floor(abs / 100);
  const rest = abs % 100;
  if (rest === 0) return `${sign}${yuan}`;
  if (rest % 10 === 0) return `${sign}${yuan}.${rest / 10}`;
  return `${sign}${yuan}.${String(rest).padStart(2, '0')}`;
}
