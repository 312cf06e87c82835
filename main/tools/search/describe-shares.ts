import type { SearchSpec } from '../../platform/search-engines/search-types';

/**
 * How the ripgrep engine shares the files it describes among the file threads: by the bytes each
 * will read, and what opening one costs beside them.
 */

/**
 * What a file costs a thread describing it beside its bytes (opening, checking its links, closing),
 * in bytes matched: ~40 µs a file against ~180 MB/s of a regex (measured on the bench corpus, where
 * a 5 MB file shared out by bytes alone beside 858 files of 3 KB left the other thread 4× as long).
 */
const FILE_COST_BYTES = 8 << 10;

/**
 * The same where the bytes go faster: a regex whose lines are found first by a literal it requires
 * (the bench corpus's broad regex: its 5 MB file in ~7 ms, a 3 KB file ~60 µs, so the 8 KB above
 * gave one thread 21 ms and the other 42), and a literal (gigabytes a second).
 */
export function fileCostBytes(spec: SearchSpec): number {
  if (spec.mode === 'bytes' || spec.mode === 'nocase') return 256 << 10;
  return spec.prefilter === undefined ? FILE_COST_BYTES : 48 << 10;
}

/**
 * `indices` cut into at most `parts` runs of about equal work (bytes, and `fileCost` bytes a file),
 * in their order (a size unknown, Infinity, counts as the largest known one).
 */
export function shareOut(
  indices: readonly number[],
  sizeOf: (index: number) => number,
  parts: number,
  fileCost = FILE_COST_BYTES,
): number[][] {
  const known = indices.map(sizeOf).filter(Number.isFinite);
  const largest = known.length === 0 ? 1 : Math.max(1, ...known);
  const weights = indices.map((index) => {
    const size = sizeOf(index);
    return (Number.isFinite(size) ? size : largest) + fileCost;
  });
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const runs: number[][] = [[]];
  let filled = 0;
  indices.forEach((index, at) => {
    // A run is full at its share of the total: the next one starts (the last takes what is left).
    if (runs.length < parts && filled >= (total * runs.length) / parts && runs.at(-1)!.length > 0) runs.push([]);
    runs.at(-1)!.push(index);
    filled += weights[at]!;
  });
  return runs;
}
