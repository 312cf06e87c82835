import { describe, expect, it } from 'vitest';
import { shareOut } from './describe-shares';

describe('shareOut', () => {
  it('cuts the files to describe into runs of about equal work, in their order', () => {
    const kB = 1 << 10;
    const sizes = [10, 10, 10, 10, 10, 10, 10, 10].map((size) => size * kB);
    expect(shareOut([0, 1, 2, 3, 4, 5, 6, 7], (i) => sizes[i]!, 2)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    // One big file first: it is a run of its own.
    const skewed = [700, 100, 100, 100].map((size) => size * kB);
    expect(shareOut([0, 1, 2, 3], (i) => skewed[i]!, 2)).toEqual([[0], [1, 2, 3]]);
    // Each file costs more than its bytes: 5 MB first, then 858 files of 3 KB (the bench corpus's
    // broad regex) are not one run of the big file and one of all the small ones.
    const corpus = [5000 * kB, ...Array<number>(858).fill(3 * kB)];
    const [first, second] = shareOut(
      corpus.map((_, i) => i),
      (i) => corpus[i]!,
      2,
    );
    expect(first!.length).toBeGreaterThan(100);
    expect(second!.length).toBeGreaterThan(400);
    // Where a file costs 48 KB of bytes (a regex with a literal to find its lines first): the 5 MB
    // file (~7 ms) and ~380 small ones (~60 µs each), then the rest.
    const [big, rest] = shareOut(
      corpus.map((_, i) => i),
      (i) => corpus[i]!,
      2,
      48 * kB,
    );
    expect([big!.length, rest!.length]).toEqual([381, 478]);
    // A size unknown weighs as the largest known; never more runs than asked, nor an empty one.
    const unknown = [Infinity, 1, 1, 9].map((size) => size * kB);
    expect(shareOut([0, 1, 2, 3], (i) => unknown[i]!, 2)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(shareOut([3], () => 1, 4)).toEqual([[3]]);
    expect(shareOut([1, 2, 3, 4, 5, 6], () => 1, 3)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
  });
});
