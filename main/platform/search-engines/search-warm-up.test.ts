import { describe, expect, it } from 'vitest';
import { newlineScanner } from '../disk/newline-scan';
import { warmUpSearch } from './search-warm-up';

/** The sample warmUpSearch wrote: the buffer's text up to the zeros after it. */
function sampleLines(buffer: Buffer): string[] {
  const end = buffer.indexOf(0);
  const lines = buffer.toString('utf8', 0, end === -1 ? buffer.length : end).split('\n');
  expect(lines.pop()).toBe(''); // whole lines only
  return lines;
}

/** What each of its queries finds, line by line: a literal without case, with case, two regexes. */
const expected = (lines: readonly string[]) =>
  [/needle/i, /needle/, /needle\w*\d/iu, /ne+dle/iu].map((re) => lines.filter((line) => re.test(line)).length);

describe('the search threads warm-up', () => {
  it('runs each kind of query over its sample and finds what a line-by-line search finds', () => {
    const scanner = newlineScanner();
    const buffer = scanner.buffer(1 << 20).fill(0);
    const counts = warmUpSearch(scanner, buffer);
    const lines = sampleLines(buffer);
    expect(counts).toEqual(expected(lines));
    // Enough hits to describe a thousand, with and without the needle's capitals.
    expect(counts[0]).toBeGreaterThan(1000);
    expect(counts[1]).toBeGreaterThan(0);
    expect(counts[1]).toBeLessThan(counts[0]!);
  });

  it('writes only what fits in a small read buffer, whole lines', () => {
    const scanner = newlineScanner();
    const buffer = scanner
      .buffer(1 << 20)
      .fill(0)
      .subarray(0, 4096);
    const counts = warmUpSearch(scanner, buffer);
    const lines = sampleLines(buffer);
    expect(lines.join('\n').length).toBeLessThanOrEqual(4096);
    expect(counts).toEqual(expected(lines));
    expect(counts[0]).toBeGreaterThan(0);
  });
});
