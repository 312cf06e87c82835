import { describe, expect, it } from 'vitest';
import { NGRAM_BINARY, NGRAM_INDEXED, trigramKey } from '../../../platform/search-engines/ngram-types';
import type { NgramSegment } from '../../../platform/search-engines/ngram-types';
import { NGRAM_FILE_VERSION, openIndex, openSavedIndex, saveIndex as indexFileParts } from './ngram-file';
import type { SavedFile } from './ngram-file';
import { FileVerdict, NgramIndex } from './ngram-index';
import type { FileSelector } from './ngram-index';
import { literalPlan } from './trigram-plan';

/** The saved file's bytes, its parts joined. */
const saveIndex = (...args: Parameters<typeof indexFileParts>) => Buffer.concat(indexFileParts(...args));

/** A worker's segment for files that each hold `abc` or not (size 10 + their number, ctime 1000). */
function segment(holds: readonly boolean[], flag = NGRAM_INDEXED): NgramSegment {
  const files = holds.flatMap((has, i) => (has ? [i] : []));
  const postings: number[] = [];
  files.forEach((file, i) => postings.push(file - (i === 0 ? -1 : files[i - 1]!)));
  return {
    sizes: Float64Array.from(holds.map((_, i) => 10 + i)),
    ctimes: Float64Array.from(holds.map(() => 1000)),
    flags: Uint8Array.from(holds.map(() => flag)),
    keys: files.length === 0 ? new Uint32Array(0) : Uint32Array.of(trigramKey(97, 98, 99)),
    ends: files.length === 0 ? new Uint32Array(0) : Uint32Array.of(postings.length),
    postings: Uint8Array.from(postings),
    bytes: holds.length * 10,
  };
}

/** `bytes` as the saved file, counting what is read and whether it was closed. */
function savedFile(bytes: Buffer) {
  const seen = { read: 0, closed: false, filled: new Set<ArrayBufferLike>() };
  const file: SavedFile = {
    size: bytes.length,
    read: (offset, length) => {
      if (offset + length > bytes.length) return Promise.reject(new Error('past the end'));
      seen.read += length;
      return Promise.resolve(Buffer.from(bytes.subarray(offset, offset + length)));
    },
    readInto: (offset, into) => {
      if (offset + into.length > bytes.length) return Promise.reject(new Error('past the end'));
      seen.read += into.length;
      seen.filled.add(into.buffer);
      into.set(bytes.subarray(offset, offset + into.length));
      return Promise.resolve();
    },
    close: () => {
      seen.closed = true;
      return Promise.resolve();
    },
  };
  return { file, seen };
}

/** 3,000 files in three segments of 1,000; every `every`-th file of a segment holds 'abc'. */
function threeSegments(every: number) {
  const index = new NgramIndex();
  const paths = Array.from({ length: 3000 }, (_, i) => `src/${i}/ü-${i}.ts`);
  for (let at = 0; at < paths.length; at += 1000) {
    index.add(paths.slice(at, at + 1000), segment(paths.slice(at, at + 1000).map((_, i) => i % every === 0)));
  }
  return { index, paths, saved: saveIndex(index, { root: '/w' }) };
}

/** `saved` opened as the saved file, and what was read of it. */
async function openedSaved(saved: Buffer) {
  const { file, seen } = savedFile(saved);
  const result = await openSavedIndex(file);
  if (!result.ok) throw new Error(result.error.message);
  return { result, seen };
}

const opened = (bytes: Buffer) => {
  const result = openIndex(bytes);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result;
};

/**
 * Every path's verdict (size as the segment gave it) and the live paths, to compare two indexes.
 * The listing (`eachKnown`) gives each live path once, with the verdict `known` gives it by name.
 */
function answers(index: NgramIndex, paths: readonly { path: string; size: number }[]) {
  const select: FileSelector = index.selector(literalPlan('abc', true));
  const live = index.livePaths().sort();
  const listed: [string, FileVerdict][] = [];
  select.eachKnown((path, verdict) => listed.push([path, verdict]));
  expect(listed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(
    live.map((path) => [path, select.known(path)]),
  );
  return {
    verdicts: paths.map(({ path, size }) => [path, select(path, size, 1000), select.known(path)]),
    live,
    listed,
    files: index.files,
  };
}

/** The first format (before issue 32 item 2): header length, file count, JSON with every path. */
function firstFormat(paths: readonly string[]): Buffer {
  const header = Buffer.from(JSON.stringify({ identity: { format: 1 }, paths, textBytes: 0, segments: [] }));
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32LE(header.length, 0);
  prefix.writeUInt32LE(paths.length, 4);
  return Buffer.concat([prefix, header, Buffer.alloc(paths.length * 17)]);
}

// Unicode in every width UTF-8 has, decomposed and composed forms, and 'Ã©' (whose UTF-16 code
// units equal the UTF-8 bytes of 'é'): none may answer for another.
const unicode = ['src/é.ts', 'src/Ã©.ts', 'src/e\u0301.ts', 'docs/日本語/読む.md', 'emoji/😀.txt', 'a b/ü ß.txt'];

describe('the trigram index file (issue 32 item 2)', () => {
  it('round-trips unicode paths: same verdicts, same live files, after changes on both sides of a save', () => {
    const index = new NgramIndex();
    const many = Array.from({ length: 300 }, (_, i) => `pkg${i % 7}/module-${i}.ts`);
    const all = [...unicode, ...many];
    index.add(all, segment(all.map((_, i) => i % 3 === 0)));
    index.add(['bin/blob.dat'], segment([false], NGRAM_BINARY));
    index.add(['src/é.ts'], segment([false])); // indexed again: its first number dies
    index.remove(['pkg1/module-1.ts', 'a b/ü ß.txt']);
    const probe = [
      ...all.map((path, i) => ({ path, size: 10 + i })),
      { path: 'src/é.ts', size: 10 },
      { path: 'bin/blob.dat', size: 10 },
      { path: 'src/never.ts', size: 10 },
      { path: 'emoji/😀.tx', size: 10 },
    ];
    const saved = saveIndex(index, { root: '/w', format: 2 });
    const reopened = opened(saved);
    expect(reopened.identity).toEqual({ root: '/w', format: 2 });
    expect(answers(reopened.index, probe)).toEqual(answers(index, probe));
    expect(answers(reopened.index, probe).verdicts.slice(0, 6)).toEqual([
      ['src/é.ts', FileVerdict.Skip, FileVerdict.Skip], // indexed again, now without abc
      ['src/Ã©.ts', FileVerdict.Skip, FileVerdict.Skip],
      ['src/e\u0301.ts', FileVerdict.Skip, FileVerdict.Skip],
      ['docs/日本語/読む.md', FileVerdict.Search, FileVerdict.Search],
      ['emoji/😀.txt', FileVerdict.Skip, FileVerdict.Skip],
      ['a b/ü ß.txt', FileVerdict.Stale, FileVerdict.Stale], // removed
    ]);

    // Changed after opening (indexed again, new, removed), then saved and opened once more.
    for (const target of [index, reopened.index]) {
      target.add(['docs/日本語/読む.md', 'new/ñ.ts'], segment([true, true]));
      target.remove(['emoji/😀.txt']);
    }
    probe.push({ path: 'new/ñ.ts', size: 11 });
    expect(answers(reopened.index, probe)).toEqual(answers(index, probe));
    const twice = opened(saveIndex(reopened.index, { root: '/w', format: 2 })).index;
    expect(answers(twice, probe)).toEqual(answers(index, probe));
    expect(answers(twice, probe).live).toContain('new/ñ.ts');
    expect(answers(twice, probe).live).not.toContain('emoji/😀.txt');
  });

  it('refuses a file of the first format (it holds every path as JSON): the index is built again', () => {
    const result = openIndex(firstFormat(['a.ts', 'b.ts']));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('ngram_other_format');
    // A later version is refused the same way, and the one before this (3: files with a byte-order
    // mark not told apart, so ripgrep's counts of them could be taken as the JS engine's).
    for (const version of [NGRAM_FILE_VERSION + 1, 3]) {
      const other = saveIndex(new NgramIndex(), {});
      other.writeUInt32LE(version, 4);
      const refused = openIndex(other);
      expect(!refused.ok && refused.error).toEqual({
        code: 'ngram_other_format',
        message: `format version ${version}`,
      });
    }
  });

  it('opens the saved file without its postings; a prepared query reads only its lists, a background read the rest', async () => {
    const { index, paths, saved } = threeSegments(5);
    const { result, seen } = await openedSaved(saved);
    const postingBytes = 3 * 200; // 200 one-byte deltas per segment
    expect(seen.read).toBeLessThan(saved.length - postingBytes + 100);
    const opening = seen.read;
    const probe = paths.map((path, i) => ({ path, size: 10 + (i % 1000) }));
    await result.index.prepare(literalPlan('xyz', true)); // in no table: nothing to read
    expect(seen.read).toBe(opening);
    const plan = literalPlan('abc', true);
    await result.index.prepare(plan);
    const afterPrepare = seen.read;
    expect(afterPrepare - opening).toBe(postingBytes); // abc's list in each segment (their only list)

    expect(answers(result.index, probe)).toEqual(answers(index, probe));
    expect(seen.closed).toBe(false);
    await result.index.loadPostings();
    expect(seen.closed).toBe(true);
    expect(seen.read - afterPrepare).toBe(postingBytes);
    expect(saveIndex(result.index, { root: '/w' }).equals(saved)).toBe(true);
  });

  it('reads each byte before the postings once, into the arrays the index keeps (no copies)', async () => {
    const { saved } = threeSegments(3);
    const { result, seen } = await openedSaved(saved);
    const postingBytes = 3 * 334; // one-byte deltas: a third of each segment's 1,000 files
    expect(seen.read).toBe(saved.length - postingBytes); // the whole head, once; no posting
    await result.index.loadPostings(); // parts() wants them in memory
    const parts = result.index.parts();
    const kept = [
      parts.sizes,
      parts.ctimes,
      parts.flags,
      ...parts.segments.flatMap((s) => [s.table.keyBytes, s.table.lengthBytes]),
    ];
    expect(kept.map((array) => seen.filled.has(array.buffer))).toEqual(kept.map(() => true));
    expect(saveIndex(result.index, { root: '/w' }).equals(saved)).toBe(true);
  });

  it('refuses a truncated file at every length with a typed error, and never throws', async () => {
    const index = new NgramIndex();
    index.add(unicode, segment(unicode.map((_, i) => i % 2 === 0)));
    const saved = saveIndex(index, { root: '/w' });
    for (let length = 0; length < saved.length; length += 1) {
      const result = openIndex(saved.subarray(0, length));
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.code).toBe('ngram_truncated');
    }
    for (let length = 0; length < saved.length; length += 7) {
      const { file, seen } = savedFile(saved.subarray(0, length));
      const result = await openSavedIndex(file);
      expect([length, !result.ok && result.error]).toEqual([
        length,
        expect.objectContaining({ code: 'ngram_truncated' }),
      ]);
      expect(seen.closed).toBe(true);
    }
    // Bytes past the end, and path offsets that do not add up, are damage.
    const longer = openIndex(Buffer.concat([saved, Buffer.of(0)]));
    expect(!longer.ok && longer.error.code).toBe('ngram_damaged');
    const bent = Buffer.from(saved);
    const offsetsAt = 24 + bent.readUInt32LE(8);
    bent.writeUInt32LE(1 << 20, offsetsAt + 4); // the first path's end, far past the path bytes
    const damaged = openIndex(bent);
    expect(!damaged.ok && damaged.error.code).toBe('ngram_damaged');
  });
  it('keeps a bounded number of lists read from disk: a long session of queries does not pile them up', async () => {
    // One segment of two files, 100 trigrams, each only in the first file.
    const keys = Uint32Array.from({ length: 100 }, (_, i) => 1000 + i);
    const index = new NgramIndex();
    index.add(['a.ts', 'b.ts'], {
      sizes: Float64Array.of(10, 11),
      ctimes: Float64Array.of(1000, 1000),
      flags: Uint8Array.of(NGRAM_INDEXED, NGRAM_INDEXED),
      keys,
      ends: Uint32Array.from(keys, (_, i) => i + 1),
      postings: new Uint8Array(keys.length).fill(1),
      bytes: 21,
    });
    const { file, seen } = savedFile(saveIndex(index, { root: '/w' }));
    const result = await openSavedIndex(file);
    if (!result.ok) throw new Error(result.error.message);
    const reopened = result.index;
    for (const key of keys) {
      const plan = { op: 'tri', key } as const;
      await reopened.prepare(plan);
      expect([key, reopened.selector(plan).known('b.ts')]).toEqual([key, FileVerdict.Skip]);
    }
    expect(reopened.keptLists).toBe(64);
    // The first key was let go: asked again, it is read again, and answers the same.
    const before = seen.read;
    await reopened.prepare({ op: 'tri', key: keys[0]! });
    expect(seen.read).toBe(before + 1);
    expect(reopened.selector({ op: 'tri', key: keys[0]! }).known('b.ts')).toBe(FileVerdict.Skip);
  });
});
