// The statistics the bench's figures are made of.

/**
 * The arithmetic mean of `values`.
 * @param {number[]} values
 */
export function mean(values) {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * The middle of `values` (the mean of the two middle ones when their number is even); `values` is left as it is.
 * @param {number[]} values
 * @returns {number}
 */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The value at `share` (0.99: p99) of `values`, sorted in place.
 * @param {number[]} values
 * @param {number} share
 * @returns {number}
 */
export function percentile(values, share) {
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(values.length * share))];
}
