import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { processTerm } from './tokenize';

const chunking = { targetTokens: 300, overlapTokens: 60, splitAtHeadings: true };

describe('Bm25Index', () => {
  it('ranks by BM25 over sections, stems Russian and English, and keeps only the top k', () => {
    const index = new Bm25Index(chunking);
    index.setDocument('a.md', '# Сад\n\nМы посадили яблони.\n\n# Кухня\n\nВаренье из яблок и груш.', String(1));
    index.setDocument('b.md', 'Deploying servers on Fridays is brave.', String(1));
    index.setDocument('c.md', 'Яблоня, яблоня, яблоня в саду.', String(1));
    const hits = index.search('яблонями', { limit: 2 });
    expect(hits.map((hit) => [hit.path, hit.startLine, hit.heading])).toEqual([
      ['c.md', 1, undefined],
      ['a.md', 1, 'Сад'],
    ]);
    expect(index.search('deployed server', { limit: 5 }).map((hit) => hit.path)).toEqual(['b.md']);
    expect(index.search('и в на', { limit: 5 })).toEqual([]);
  });

  it('replaces and removes documents, compacts stale postings, filters and survives a save and load', () => {
    const index = new Bm25Index(chunking);
    for (let n = 0; n < 1500; n += 1) index.setDocument(`f${n}.md`, `walrus number ${n}`, String(n));
    for (let n = 0; n < 1200; n += 1) index.removeDocument(`f${n}.md`);
    index.setDocument('f1499.md', 'now about otters', String(2));
    expect(index.documentCount).toBe(300);
    expect(index.versionOf('f1499.md')).toBe('2');
    expect(index.search('walrus', { limit: 1000 })).toHaveLength(299);
    expect(index.search('walrus', { limit: 10, filter: (path) => path === 'f1300.md' }).map((hit) => hit.path)).toEqual(
      ['f1300.md'],
    );
    const copy = new Bm25Index(chunking);
    expect(copy.load(JSON.parse(JSON.stringify(index.toJSON())))).toBe(true);
    expect(copy.search('otters', { limit: 3 }).map((hit) => hit.path)).toEqual(['f1499.md']);
    expect(copy.search('walrus', { limit: 1000 })).toHaveLength(299);
    // Packed postings keep each frequency, a heading's half weights included: the same scores.
    index.setDocument('h.md', '# Walrus\n\nA walrus and an otter.', String(3));
    const saved = index.toJSON();
    const walrus = saved.postings.find(([term]) => term === processTerm('walrus')[0]);
    const slot = saved.files.find(([path]) => path === 'h.md')?.[1][0];
    expect(walrus?.[2][walrus[1].indexOf(slot as number)]).toBe(3.5); // twice in the text, once (×1.5) as heading
    copy.load(JSON.parse(JSON.stringify(saved)));
    const scores = (of: Bm25Index) => of.search('walrus', { limit: 5 }).map((hit) => [hit.path, hit.score]);
    expect(scores(copy)).toEqual(scores(index));
    expect(scores(index)[0]?.[0]).toBe('h.md');
    expect(copy.load({ nonsense: true })).toBe(false);
    expect(copy.documentCount).toBe(0);
  });
});
