import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../platform/heap/heap-release';
import { forgetCachedTerms, processTerm, tokenize } from './tokenize';

describe('processTerm', () => {
  it('keeps no text alive through the words it caches (a word is a slice of its text)', () => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    // 500 texts of 64 KB, each with a long word of its own: 32 MB if the cache held the texts.
    for (let n = 0; n < 500; n += 1) {
      const text = `${'filler words here '.repeat(3600)} uniqueidentifierword${n}`;
      for (const word of tokenize(text)) processTerm(word);
    }
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(12 * 1024 * 1024);
  });

  it('forgets the words it cached once asked (a build is over)', () => {
    for (let n = 0; n < 100_000; n += 1) processTerm(`word${n}x`);
    collectGarbage();
    const full = process.memoryUsage().heapUsed;
    forgetCachedTerms();
    collectGarbage();
    expect(full - process.memoryUsage().heapUsed).toBeGreaterThan(4 * 1024 * 1024);
  });

  it('stems as before', () => {
    expect(processTerm('searching')).toEqual(['search']);
    expect(processTerm('the')).toEqual([]);
  });
});
