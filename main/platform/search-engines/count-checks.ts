import type { AnchoredFiles } from '../disk/anchored-batch';
import { anchoredOpener } from '../disk/anchored-opener';
import { keepsCtime } from '../disk/kept-ctime';
import { nulInHead, SNIFF_BYTES, utf16Encoding, utf8Bom } from './search-file-reads';

/** A count ripgrep made of a file stands (the file is text to the JS engine when judged). */
export const COUNT_STANDS = 0;
/** The file is binary to the JS engine (a NUL byte in its first 8 KB): skipped, its count with it. */
export const COUNT_BINARY = 1;
/** The file must be counted again through the sandbox: changed, not one the sandbox reads, or UTF-16. */
export const COUNT_AGAIN = 2;

export interface CountCheckJob {
  readonly files: AnchoredFiles;
  /** The files of `files` ripgrep counted. */
  readonly indices: Int32Array;
  /** Date.now() before ripgrep started, less the clock's slack: a change since makes a file doubtful. */
  readonly sinceMs: number;
  /** Judge binary files too (ripgrep read every file as text): each file's first bytes are read. */
  readonly judgeBinary: boolean;
  /**
   * Per index: the ctime the file must still have, the one the trigram index read it at (its
   * content, links and whether it is text then known from the index): one lstat, no read. Not with
   * judgeBinary.
   */
  readonly ctimes?: Float64Array;
}

export interface CountChecks {
  /** One verdict (COUNT_*) per index. */
  readonly verdicts: Uint8Array;
  /**
   * Each file's size as the check found it (0: not looked at): the confirming walk of a broad search
   * does not look sizes up (search-ripgrep-walk.ts sizesUpTo), the engine shares its reads by them.
   */
  readonly sizes: Float64Array;
}

/**
 * Does ripgrep's count of each file stand (search-ripgrep-engine.ts)? A file it counted by its name
 * may have been a second hard link to an outside file, or a symlink out, for that moment. Each is
 * looked at again the sandbox's way (anchored-opener.ts unchangedSince: one link, nothing on its way
 * changed since before ripgrep started); where a change cannot be told by its ctime (not Linux, a
 * network file system), the file as it is now decides. With `judgeBinary`, the file's first bytes,
 * read before it is vouched for, say whether the JS engine would take it for binary (UTF-16, and
 * UTF-8 with a BOM, are counted again). With `ctimes`, the file must still have the ctime the trigram
 * index read it at, which says it is still the text the index knew (search-index-engine.ts
 * vouchedByIndex): no read. Runs in the file threads (~11-15 µs a file in one thread;
 * shared between two, the checks of 30,001 files ended ~70 ms sooner) or in this one.
 */
export function checkCounts({ files, indices, sinceMs, judgeBinary, ctimes }: CountCheckJob): CountChecks {
  // The batch's own descriptors stay the batch's to close.
  const opener = anchoredOpener({ ...files, opened: undefined });
  const kept = files.mode === 'proc-fd' && keepsCtime(files.root.fd);
  const head = judgeBinary ? Buffer.allocUnsafe(SNIFF_BYTES) : undefined;
  const sizes = new Float64Array(indices.length);
  const verdict = (index: number, at: number): number => {
    let read = 0;
    let seen;
    if (head !== undefined) {
      const looked = opener.head(index, head);
      if (looked === undefined || utf16Encoding(head, looked.read) !== undefined || utf8Bom(head, looked.read)) {
        return COUNT_AGAIN;
      }
      ({ read, stats: seen } = looked);
      sizes[at] = seen.size;
    } else if (ctimes !== undefined) {
      // As indexed, or counted again: a change since (a write, a link added or taken away) sets it.
      seen = opener.lstat(index);
      if (seen === undefined || seen.ctimeMs !== ctimes[at]) return COUNT_AGAIN;
      sizes[at] = seen.size;
    }
    const unchanged = kept ? opener.unchangedSince(index, sinceMs, seen) : undefined;
    // With `ctimes`, `seen` is the file by its name now already.
    const now = unchanged === undefined ? (ctimes !== undefined ? seen : opener.lstat(index)) : undefined;
    if (now !== undefined) sizes[at] = now.size;
    const stands =
      unchanged ?? (now !== undefined && now.isFile() && (files.hardLinks !== 'refuse' || now.nlink === 1));
    if (!stands) return COUNT_AGAIN;
    return head !== undefined && nulInHead(head, read) ? COUNT_BINARY : COUNT_STANDS;
  };
  const verdicts = new Uint8Array(indices.length);
  try {
    indices.forEach((index, at) => {
      try {
        verdicts[at] = verdict(index, at);
      } catch {
        verdicts[at] = COUNT_AGAIN; // a folder on its way turned unreadable: the JS engine judges it
      }
    });
  } finally {
    opener.close();
  }
  return { verdicts, sizes };
}
