import * as fs from 'node:fs';
import { anchoredOpener } from '../disk/anchored-opener';
import { nulInHead, utf16Encoding, utf8Bom } from './search-file-reads';
import { NGRAM_ALWAYS, NGRAM_BINARY, NGRAM_BOM, NGRAM_INDEXED, NGRAM_RACY } from './ngram-types';
import type { NgramSegment } from './ngram-types';
import type { AnchoredFiles } from '../disk/anchored-batch';

/** Bigger files are not indexed: every query searches them (a 200 MB log's trigrams are few, its scan is not). */
export const MAX_NGRAM_FILE_BYTES = 256 << 20;
const readBytes = 4 << 20;

const fold = new Uint8Array(256);
for (let i = 0; i < 256; i += 1) fold[i] = i >= 65 && i <= 90 ? i + 32 : i;

/** Longest single wait on the hold: the flag is read again then, should a wake-up be missed. */
const HOLD_WAIT_MS = 100;

/**
 * Blocks this thread while `hold` is nonzero (a tool call runs: ForegroundGate.shared), so a job
 * under way yields the cores to the call (issue 32 item 1). In an index thread only: the main
 * thread may not block.
 */
export function waitWhileHeld(hold: Int32Array | undefined): void {
  if (hold === undefined) return;
  while (Atomics.load(hold, 0) !== 0) Atomics.wait(hold, 0, 1, HOLD_WAIT_MS);
}

/**
 * The trigram job of the file workers: reads each file the anchored way (the same opener as the
 * searcher: O_NOFOLLOW, folder identity, hard links refused, so a symlink swapped in is never
 * followed and outside content never enters the index), and answers one segment (ngram-types.ts).
 * `hold`: waited on before each file and each 4 MB read (waitWhileHeld).
 */
export function createNgramExtractor(hold?: Int32Array) {
  // One bit per possible trigram (2^24 bits = 2 MB): a file's distinct trigrams without a Set.
  const seen = new Uint32Array(1 << 19);
  let found = new Uint32Array(1 << 16);
  let chunk = Buffer.allocUnsafe(readBytes);

  /** Distinct trigram keys of the file open as `fd` (sorted); none for a binary or UTF-16 file (its flag says). */
  function trigramsOf(fd: number, size: number): { keys: Uint32Array; bytes: number; flag: number } {
    let count = 0;
    let key = 0;
    let position = 0;
    let bom = false;
    for (;;) {
      if (position > 0) waitWhileHeld(hold); // a big file: between its reads too
      let read: number;
      try {
        read = fs.readSync(fd, chunk, 0, chunk.length, position);
      } catch {
        break; // EISDIR, EAGAIN on a FIFO swapped in: what was read so far
      }
      if (read === 0) break;
      if (position === 0) {
        if (utf16Encoding(chunk, read) !== undefined) return { keys: new Uint32Array(0), bytes: 0, flag: NGRAM_ALWAYS };
        if (nulInHead(chunk, read)) {
          return { keys: new Uint32Array(0), bytes: 0, flag: NGRAM_BINARY };
        }
        bom = utf8Bom(chunk, read);
      }
      for (let i = 0; i < read; i += 1) {
        key = ((key << 8) | fold[chunk[i]!]!) & 0xffffff;
        // The first two bytes of the file make no trigram yet.
        if (position + i < 2) continue;
        const word = key >>> 5;
        const bit = 1 << (key & 31);
        if ((seen[word]! & bit) === 0) {
          seen[word] = seen[word]! | bit;
          if (count === found.length) {
            const grown = new Uint32Array(found.length * 2);
            grown.set(found);
            found = grown;
          }
          found[count++] = key;
        }
      }
      position += read;
      if (position >= size && read < chunk.length) break; // a short read at the end: no second read
    }
    const keys = found.slice(0, count);
    for (let i = 0; i < count; i += 1) seen[keys[i]! >>> 5] = 0;
    keys.sort();
    return { keys, bytes: position, flag: bom ? NGRAM_BOM : NGRAM_INDEXED };
  }

  /** `racyMs`: a file whose ctime is this close to the read may change again unseen (NGRAM_RACY). */
  return function extract(files: AnchoredFiles, racyMs: number): NgramSegment {
    const n = files.names.length;
    const sizes = new Float64Array(n);
    const ctimes = new Float64Array(n);
    const flags = new Uint8Array(n).fill(NGRAM_ALWAYS);
    const perFile: (Uint32Array | undefined)[] = new Array<Uint32Array | undefined>(n);
    let bytes = 0;
    const opener = anchoredOpener(files);
    try {
      for (let index = 0; index < n; index += 1) {
        waitWhileHeld(hold);
        const fd = opener.open(index);
        if (fd === undefined) continue; // stays NGRAM_ALWAYS: every query looks at it again
        let result: { keys: Uint32Array; bytes: number; flag: number };
        let stats: fs.Stats;
        let racy: boolean;
        try {
          // Size and ctime before the read: a write during the read leaves a newer ctime, seen as a change.
          const now = Date.now();
          stats = fs.fstatSync(fd);
          racy = stats.ctimeMs >= now - racyMs;
          result =
            stats.size > MAX_NGRAM_FILE_BYTES
              ? { keys: new Uint32Array(0), bytes: 0, flag: NGRAM_ALWAYS }
              : trigramsOf(fd, stats.size);
        } catch (error) {
          fs.closeSync(fd);
          throw error;
        }
        opener.settle(index, fd, () => {
          sizes[index] = stats.size;
          ctimes[index] = stats.ctimeMs;
          const indexed = result.flag === NGRAM_INDEXED || result.flag === NGRAM_BOM;
          flags[index] = racy && indexed ? NGRAM_RACY : result.flag;
          perFile[index] = result.keys;
          bytes += result.bytes;
        });
      }
      opener.finish();
    } finally {
      opener.close();
    }
    if (chunk.length > readBytes) chunk = Buffer.allocUnsafe(readBytes);
    return { sizes, ctimes, flags, bytes, ...postingsOf(perFile) };
  };
}

/** Inverts per-file sorted key lists into sorted keys and varint delta postings (a k-way merge by sort). */
function postingsOf(perFile: readonly (Uint32Array | undefined)[]): Pick<NgramSegment, 'keys' | 'ends' | 'postings'> {
  let total = 0;
  for (const keys of perFile) total += keys?.length ?? 0;
  // key * 2^20 + file: exact in a double (44 bits), sorted natively.
  const pairs = new Float64Array(total);
  let at = 0;
  perFile.forEach((keys, file) => {
    if (keys === undefined) return;
    for (let i = 0; i < keys.length; i += 1) pairs[at++] = keys[i]! * 1048576 + file;
  });
  pairs.sort();
  const keys: number[] = [];
  const ends: number[] = [];
  const postings = new Uint8Array(total * 3);
  let length = 0;
  let previousKey = -1;
  let previousFile = 0;
  for (let i = 0; i < total; i += 1) {
    const pair = pairs[i]!;
    const key = Math.floor(pair / 1048576);
    const file = pair - key * 1048576;
    if (key !== previousKey) {
      if (previousKey !== -1) ends.push(length);
      keys.push(key);
      previousKey = key;
      previousFile = -1;
    }
    let delta = file - previousFile;
    previousFile = file;
    while (delta >= 0x80) {
      postings[length++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    postings[length++] = delta;
  }
  if (previousKey !== -1) ends.push(length);
  return { keys: Uint32Array.from(keys), ends: Uint32Array.from(ends), postings: postings.slice(0, length) };
}
