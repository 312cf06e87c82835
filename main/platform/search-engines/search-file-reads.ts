import * as fs from 'node:fs';

/** The searcher's reads besides its main loop: UTF-16 files, and line numbers far into big files. */

/**
 * The JS engine's binary rule, for the threads that read files (text-codec.ts sniffBytes and
 * looksBinary say the same; not imported, to keep iconv out of the workers): a NUL byte among the
 * first 8 KB of the `filled` bytes read from a file's start, once UTF-16 is ruled out.
 */
export const SNIFF_BYTES = 8192;
export const nulInHead = (bytes: Buffer, filled: number): boolean =>
  bytes.subarray(0, Math.min(filled, SNIFF_BYTES)).includes(0);

/** A UTF-8 byte-order mark at the start: ripgrep drops it, the JS engine keeps it as U+FEFF (a `^` at the file's start tells). */
export const utf8Bom = (head: Buffer, read: number): boolean =>
  read >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;

export function utf16Encoding(bytes: Buffer, filled: number): 'utf-16le' | 'utf-16be' | undefined {
  if (filled < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

// UTF-16 text (rare in code) is decoded whole; above 64 MB it is skipped like a binary file.
export function readUtf16(fd: number, encoding: string, head: Buffer, atEnd: boolean): string | undefined {
  let bytes = head;
  if (!atEnd) {
    const size = fs.fstatSync(fd).size;
    if (size > 64 << 20) return undefined;
    bytes = Buffer.allocUnsafe(size);
    bytes = bytes.subarray(0, fs.readSync(fd, bytes, 0, size, 0));
  }
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

// Newlines in [from, to) of a file, read again with a small buffer: only big files with a match
// far from their start pay for this, files without matches never do.
export function countFileNewlines(fd: number, from: number, to: number): number {
  const scratch = Buffer.allocUnsafe(1 << 20);
  let count = 0;
  for (let at = from; at < to;) {
    const read = fs.readSync(fd, scratch, 0, Math.min(scratch.length, to - at), at);
    if (read === 0) break;
    for (let i = scratch.indexOf(10, 0); i !== -1 && i < read; i = scratch.indexOf(10, i + 1)) count += 1;
    at += read;
  }
  return count;
}
