/** The median of a series (the mean of the two middle values of an even one); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Per round, one figure over its anchor's figure of the same round; the median of those ratios.
 * Rounds run interleaved, so a busy moment of the machine slows both sides of a ratio alike.
 */
export function medianRatio(figures: readonly number[], anchors: readonly number[]): number {
  if (figures.length !== anchors.length) throw new Error(`${figures.length} figures against ${anchors.length} anchors`);
  return median(figures.map((figure, round) => figure / anchors[round]!));
}
