import { describe, expect, it } from 'vitest';
import { NGRAM_BINARY, NGRAM_INDEXED, trigramKey } from '../../../platform/search-engines/ngram-types';
import type { NgramSegment } from '../../../platform/search-engines/ngram-types';
import { openIndex, saveIndex as indexFileParts } from './ngram-file';
import { FileVerdict, NgramIndex } from './ngram-index';
import { literalPlan } from './trigram-plan';

/** The saved file's bytes, its parts joined. */
const saveIndex = (...args: Parameters<typeof indexFileParts>) => Buffer.concat(indexFileParts(...args));

const key = (text: string) => trigramKey(text.charCodeAt(0), text.charCodeAt(1), text.charCodeAt(2));

/** A segment as a worker would answer it: per file its trigrams (3-letter strings). */
function segment(files: { trigrams: string[]; flag?: number }[]): NgramSegment {
  const byKey = new Map<number, number[]>();
  files.forEach((file, index) => {
    for (const trigram of file.trigrams) byKey.set(key(trigram), [...(byKey.get(key(trigram)) ?? []), index]);
  });
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  const postings: number[] = [];
  const ends: number[] = [];
  for (const k of keys) {
    let previous = -1;
    for (const file of byKey.get(k)!) {
      postings.push(file - previous); // one-byte deltas: small tests
      previous = file;
    }
    ends.push(postings.length);
  }
  return {
    sizes: Float64Array.from(files.map(() => 10)),
    ctimes: Float64Array.from(files.map(() => 1000)),
    flags: Uint8Array.from(files.map((file) => file.flag ?? NGRAM_INDEXED)),
    keys: Uint32Array.from(keys),
    ends: Uint32Array.from(ends),
    postings: Uint8Array.from(postings),
    bytes: 30,
  };
}

/** A saved index opened again (the test fails when it is refused). */
function reopen(bytes: Buffer): { index: NgramIndex; identity: unknown } {
  const result = openIndex(bytes);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result;
}

describe('the trigram index', () => {
  it('picks the files holding every trigram, and survives a save and reload', () => {
    const index = new NgramIndex();
    index.add(
      ['a', 'b', 'c'],
      segment([{ trigrams: ['abc', 'bcd'] }, { trigrams: ['abc'] }, { trigrams: [], flag: NGRAM_BINARY }]),
    );
    for (const candidate of [index, reopen(saveIndex(index, { id: 1 })).index]) {
      const select = candidate.selector(literalPlan('abcd', true));
      expect(select('a', 10, 1000)).toBe(FileVerdict.Search);
      expect(select('b', 10, 1000)).toBe(FileVerdict.Skip);
      expect(select('c', 10, 1000)).toBe(FileVerdict.Binary);
      expect(select('a', 11, 1000)).toBe(FileVerdict.Stale);
    }
    expect(reopen(saveIndex(index, { id: 1 })).identity).toEqual({ id: 1 });
  });

  it('searches a file indexed again while a query walks (its new number is past the plan’s marks)', () => {
    const index = new NgramIndex();
    index.add(['a', 'b'], segment([{ trigrams: ['abc'] }, { trigrams: ['xyz'] }]));
    const select = index.selector(literalPlan('xyz', true));
    expect(select('a', 10, 1000)).toBe(FileVerdict.Skip);
    // A refresh indexes 'a' again (now with xyz; same size and ctime in this synthetic case).
    index.add(['a'], segment([{ trigrams: ['xyz'] }]));
    expect(select('a', 10, 1000)).toBe(FileVerdict.Search);
    expect(index.files).toBe(2);
    expect(index.deadShare).toBeCloseTo(1 / 3);
  });

  it('opens a saved index without decoding any segment; a query decodes what it needs (issue 32 item 2)', () => {
    const index = new NgramIndex();
    index.add(['a', 'b'], segment([{ trigrams: ['abc'] }, { trigrams: ['xyz'] }]));
    index.add(['c'], segment([{ trigrams: ['xyz'] }]));
    const saved = saveIndex(index, { id: 1 });
    const opened = reopen(saved).index;
    expect(opened.decodedSegments).toBe(0);
    expect(opened.files).toBe(3);
    // Saving an index nobody queried writes the same bytes (its tables were never decoded).
    expect(saveIndex(opened, { id: 1 }).equals(saved)).toBe(true);
    const select = opened.selector(literalPlan('xyz', true));
    expect(opened.decodedSegments).toBe(2);
    expect([select('a', 10, 1000), select('b', 10, 1000), select('c', 10, 1000)]).toEqual([
      FileVerdict.Skip,
      FileVerdict.Search,
      FileVerdict.Search,
    ]);
  });

  it('gives up on a plan with more candidates than asked for once a segment passes that count, decoding no more', () => {
    const index = new NgramIndex();
    index.add(['a', 'b'], segment([{ trigrams: ['xyz'] }, { trigrams: ['xyz'] }]));
    index.add(['c'], segment([{ trigrams: ['xyz'] }]));
    index.add(['d'], segment([{ trigrams: ['abc'] }]));
    const opened = reopen(saveIndex(index, { id: 1 })).index;
    const plan = literalPlan('xyz', true);
    // Two candidates in the first segment already pass one: the other segments are not decoded
    // (not prepared here: prepare() would have decoded every segment's key table for the plan).
    expect(opened.selector(plan, 1)).toBeUndefined();
    expect(opened.decodedSegments).toBe(1);
    // Three in all: not more than three, so a selector, with every segment decoded.
    const select = opened.selector(plan, 3);
    expect(opened.decodedSegments).toBe(3);
    expect(select?.share).toBe(0.75);
    expect(['a', 'b', 'c', 'd'].map((path) => select?.(path, 10, 1000))).toEqual([
      FileVerdict.Search,
      FileVerdict.Search,
      FileVerdict.Search,
      FileVerdict.Skip,
    ]);
    expect(opened.selector(plan, 2)).toBeUndefined();
    // A plan on every file: its count is the index's files.
    expect(opened.selector(literalPlan('ab', true), 3)).toBeUndefined();
    expect(opened.selector(literalPlan('ab', true), 4)?.share).toBe(1);
  });

  it('answers "may match" from a saved segment whose tables do not add up (a cache never hides a match)', () => {
    const index = new NgramIndex();
    index.add(['a', 'b'], segment([{ trigrams: ['abc'] }, { trigrams: ['xyz'] }]));
    const saved = saveIndex(index, { id: 1 });
    // The last list-length varint is the byte before the postings (3 one-byte lists: abc, xyz... ).
    const postingsAt = saved.length - 2;
    saved[postingsAt - 1] = 5; // the last list's length, now past the postings' end
    const opened = reopen(saved).index;
    const select = opened.selector(literalPlan('xyz', true));
    expect(select('a', 10, 1000)).toBe(FileVerdict.Search);
    expect(select('b', 10, 1000)).toBe(FileVerdict.Search);
    expect(saveIndex(opened, { id: 1 }).equals(saved)).toBe(true);
  });
});
