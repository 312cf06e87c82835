import { isUtf8 } from 'node:buffer';
import type { Utf8Count } from '../disk/newline-scan';
import { shownLine } from './search-lines';

/**
 * shownLine and columnOf for a line of valid UTF-8 bytes, without decoding it whole: a minified
 * bundle's line of megabytes was decoded up to each match and its code points spread into an
 * array (issue 32: a first search read 134 MB in 780 ms, 480 of them in columnOf). Here the
 * characters before the match are counted in the bytes, and only the shown part is decoded. The
 * answer is the same as shownLine(decoded line, columnOf(decoded part before the match)).
 *
 * Undefined where that path must decide: bytes that are not valid UTF-8 (their replacement
 * characters), or the file's first line starting with a byte order mark.
 */
export function shownUtf8Line(
  bytes: Buffer,
  start: number,
  end: number,
  focus: number,
  maxLineChars: number,
  firstOfFile: boolean,
  /** Counts faster where it can (NewlineScanner.utf8: the bytes in its memory); countUtf8 elsewhere. */
  counter?: (bytes: Buffer, start: number, end: number) => Utf8Count | undefined,
): { text: string; column: number } | undefined {
  if (firstOfFile && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) return undefined;
  if (!isUtf8(bytes.subarray(start, end))) return undefined;
  const { codePoints, astral } = counter?.(bytes, start, focus) ?? countUtf8(bytes, start, focus);
  const column = codePoints + 1;
  const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  // A line this short is decoded whole (shownLine may show all of it: four bytes can be one unit).
  if (stop - start <= 4 * maxLineChars + 8) {
    return { text: shownLine(bytes.toString('utf8', start, end), column, maxLineChars, firstOfFile), column };
  }
  // Longer than maxLineChars units for sure; its length matters only near its end. (A character
  // cut at the end of this window decodes to replacement characters beyond what is shown.)
  const tailEnd = Math.min(stop, focus + 4 * maxLineChars + 4);
  const tail = bytes.toString('utf8', focus, tailEnd);
  const lineUnits = tailEnd === stop ? codePoints + astral + tail.length : Infinity;
  const from = Math.max(0, Math.min(column - 1 - 80, lineUnits - maxLineChars));
  // UTF-16 units between `from` and the match, decoded from far enough back (the bytes of a
  // character cut there decode to replacement characters before what is shown).
  const back = codePoints + astral - from;
  const headStart = Math.max(start, focus - 4 * back - 4);
  const head = bytes.toString('utf8', headStart, focus);
  const shown = (head + tail).slice(head.length - back, head.length - back + maxLineChars);
  return { text: `${from > 0 ? '…' : ''}${shown}…`, column };
}

/** Code points in valid UTF-8 bytes [start, end), and how many of them take two UTF-16 units. */
export function countUtf8(bytes: Buffer, start: number, end: number): Utf8Count {
  let continuation = 0;
  let astral = 0;
  let i = start;
  const byte = (b: number) => {
    if ((b & 0xc0) === 0x80) continuation += 1;
    else if (b >= 0xf0) astral += 1;
  };
  for (; i < end && ((bytes.byteOffset + i) & 3) !== 0; i += 1) byte(bytes[i]!);
  const wordCount = ((bytes.byteOffset + i) & 3) === 0 ? (end - i) >>> 2 : 0;
  const words = wordCount === 0 ? new Uint32Array(0) : new Uint32Array(bytes.buffer, bytes.byteOffset + i, wordCount);
  for (let k = 0; k < words.length; k += 1) {
    const w = words[k]!;
    // Per byte, bit 7: set for 10xxxxxx (continues a character), and for 1111xxxx (starts a 4-byte one).
    const cont = w & ~(w << 1) & 0x80808080;
    const four = w & (w << 1) & (w << 2) & (w << 3) & 0x80808080;
    if (cont !== 0) continuation += Math.imul(cont >>> 7, 0x01010101) >>> 24;
    if (four !== 0) astral += Math.imul(four >>> 7, 0x01010101) >>> 24;
  }
  for (i += words.length << 2; i < end; i += 1) byte(bytes[i]!);
  return { codePoints: end - start - continuation, astral };
}
