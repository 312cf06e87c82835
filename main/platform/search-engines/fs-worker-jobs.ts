import * as fs from 'node:fs';
import { anchoredOpener } from '../disk/anchored-opener';
import { newlineScanner } from '../disk/newline-scan';
import type { NewlineScanner } from '../disk/newline-scan';
import { nulInHead, readUtf16, utf16Encoding } from './search-file-reads';
import { compileMatcher } from './search-matchers';
import { newFileState, scanSegment } from './search-segment';
import { warmUpSearch } from './search-warm-up';
import type { Text } from './fs-worker-text';
import type { AnchoredFiles } from '../disk/anchored-batch';
import type { FileMatches, SearchJob, SearchJobResult, StatRows } from './search-types';

/**
 * The work Familiar's file workers do: stat many entries, search many files. Runs in worker threads
 * (fs-worker.ts, through fs-worker-pool.ts) and in the main thread (in-process-jobs.ts) alike.
 */
export interface FsJobs {
  statEntries(files: AnchoredFiles): StatRows;
  searchFiles(job: SearchJob): SearchJobResult;
  /** Runs the search code once over a made-up text (search-warm-up.ts): what each kind of query found. */
  warmUp(): number[];
}

/**
 * `chunkSize` and `keptBytes` are for tests (tiny chunks exercise the segment seams, and a small
 * `keptBytes` a long line grown in place, then copied); workers use the defaults.
 */
export function createFsJobs(options: { chunkSize?: number; keptBytes?: number } = {}): FsJobs {
  const chunkSize = options.chunkSize ?? 4 << 20;
  const maxLineBytes = Math.max(chunkSize, 64 << 20);
  // A longer line (a minified bundle) grows the read buffer in place, in the scanner's memory, up to
  // this: a thread keeps that much once it met such a line, where a copy to a new buffer cost a
  // quarter of describing an npm tree's 163 files with a rare word (27 of 110 ms).
  const maxKeptBytes = Math.max(chunkSize, options.keptBytes ?? 16 << 20);
  // Allocated on the first search: the read buffer lives in the newline scanner's memory.
  let scanner: NewlineScanner | undefined;
  let buffer: Buffer | undefined;
  const readBuffer = (): { scanner: NewlineScanner; buffer: Buffer } => {
    scanner ??= newlineScanner();
    buffer ??= scanner.buffer(chunkSize);
    return { scanner, buffer };
  };

  function statEntries(files: AnchoredFiles): StatRows {
    const rows = new Float64Array(files.names.length * 2);
    const opener = anchoredOpener(files);
    try {
      for (let i = 0; i < files.names.length; i += 1) {
        const s = opener.lstat(i);
        rows[i * 2] = s === undefined ? -1 : s.isFile() ? 0 : s.isDirectory() ? 1 : s.isSymbolicLink() ? 2 : 3;
        rows[i * 2 + 1] = s === undefined ? 0 : s.size;
      }
    } finally {
      opener.close();
    }
    return rows;
  }

  function searchFiles(job: SearchJob): SearchJobResult {
    const { spec } = job;
    const read = readBuffer();
    const { scanner } = read;
    let base: Buffer = read.buffer;
    const { findIn, onBytes } = compileMatcher(spec);
    const search = { spec, findIn, maxDetails: job.maxDetails, newlines: scanner };
    const decoded = spec.mode === 'utf8' && !onBytes;
    const files: FileMatches[] = [];
    const counts: number[] = [];
    const stoppedFiles: number[] = [];
    let bytes = 0;
    let binary = 0;

    const opener = anchoredOpener(job.files);
    try {
      for (let index = 0; index < job.files.names.length; index += 1) {
        const fd = opener.open(index);
        if (fd === undefined) continue;
        const state = newFileState(fd);
        let isBinary = false;
        let stopped = false;
        let chunk = base;
        try {
          let fileOffset = 0; // file offset of the segment start
          let carry = 0; // bytes of an unfinished line kept at the chunk's start
          for (;;) {
            let read = 0;
            try {
              read = fs.readSync(fd, chunk, carry, chunk.length - carry, fileOffset + carry);
            } catch {
              break; // EAGAIN on a FIFO swapped in, EISDIR...: nothing to search
            }
            bytes += read;
            const filled = carry + read;
            // A short read of a regular file is its end (saves a second read per small file).
            const atEnd = filled < chunk.length;
            if (fileOffset === 0) {
              const utf16 = utf16Encoding(chunk, filled);
              if (utf16 !== undefined) {
                const text = readUtf16(fd, utf16, chunk.subarray(0, filled), atEnd);
                if (text !== undefined) scanSegment(search, state, chunk.subarray(0, 0), text, true, 0, true);
                else isBinary = true;
                break;
              }
              if (nulInHead(chunk, filled)) {
                isBinary = true;
                break;
              }
            }
            // Cut at the last newline so no line straddles two segments. A line longer than the chunk
            // grows the chunk (minified files), up to maxLineBytes; beyond that it is cut.
            let cut = filled;
            if (!atEnd) {
              const last = chunk.lastIndexOf(10, filled - 1);
              if (last === -1 && chunk.length < maxLineBytes) {
                const size = chunk.length * 2;
                // In the scanner's memory: grown where it is (the views before it are detached).
                const inPlace: Buffer | undefined =
                  chunk.buffer === base.buffer && size <= maxKeptBytes ? scanner.grow(size) : undefined;
                if (inPlace !== undefined) buffer = base = inPlace.subarray(0, chunkSize);
                const grown = inPlace ?? Buffer.allocUnsafe(size);
                if (inPlace === undefined) chunk.copy(grown, 0, 0, filled);
                chunk = grown;
                carry = filled;
                continue;
              }
              cut = last === -1 ? filled : last + 1;
            }
            const seg = chunk.subarray(0, cut);
            const text: Text = onBytes ? seg : seg.toString(decoded ? 'utf8' : 'latin1');
            scanSegment(search, state, seg, text, decoded, fileOffset, atEnd);
            if (atEnd) break;
            // Described, context included: the rest of the file would only be counted.
            const described = job.maxDetails > 0 && state.hits.length >= job.maxDetails;
            if (job.stopWhenDescribed === true && described && state.waiting.length === 0) {
              stopped = true;
              break;
            }
            chunk.copyWithin(0, cut, filled);
            carry = filled - cut;
            fileOffset += cut;
          }
        } catch (error) {
          fs.closeSync(fd);
          throw error;
        }
        opener.settle(index, fd, () => {
          if (isBinary) binary += 1;
          else if (state.count > 0) {
            counts.push(index, state.count);
            if (stopped) stoppedFiles.push(index);
            if (state.hits.length > 0) files.push({ index, count: state.count, hits: state.hits });
          }
        });
      }
      opener.finish(); // confirmations run in the order files were read: results stay in job order
    } finally {
      opener.close();
    }
    return {
      files,
      counts: Int32Array.from(counts),
      bytes,
      binary,
      ...(job.stopWhenDescribed === true ? { stopped: Int32Array.from(stoppedFiles) } : {}),
    };
  }

  return {
    statEntries,
    searchFiles,
    warmUp: () => {
      const read = readBuffer();
      return warmUpSearch(read.scanner, read.buffer);
    },
  };
}
