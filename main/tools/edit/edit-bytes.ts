import { isUtf8 } from 'node:buffer';
import { looksBinary, sniffBom } from '../../platform/disk/text-codec';
import { contextLines, spliceDiff } from './unified-diff';

/** An exact, unique edit of a UTF-8 file, worked out on its bytes. */
export interface ExactByteEdit {
  /** The new file: the bytes before the span, the replacement, the bytes after. */
  readonly pieces: readonly Buffer[];
  /** 1-based line of the span's start, and of the replacement's end. */
  readonly startLine: number;
  readonly endLine: number;
  readonly diff: string;
}

const newline = 0x0a;

/** Start of the line holding byte `at`. */
const lineStart = (bytes: Buffer, at: number) => (at <= 0 ? 0 : bytes.lastIndexOf(newline, at - 1) + 1);

function countNewlines(bytes: Buffer, end: number): number {
  let count = 0;
  for (let at = bytes.indexOf(newline); at !== -1 && at < end; at = bytes.indexOf(newline, at + 1)) count += 1;
  return count;
}

/**
 * The edit models make most, made cheap on big files: oldText found exactly once in a UTF-8 file
 * with LF line endings. Found in the bytes (in valid UTF-8 a byte match of valid UTF-8 is a match
 * of the same characters), so a 5 MB file is never decoded to a string; only the lines around the
 * span are, for the diff. Answers exactly what planEdit on the decoded text would, or undefined
 * whenever that general path must decide (no match or several, CRLF, another encoding, binary,
 * no change): then it runs as before.
 */
export function planExactByteEdit(
  bytes: Buffer,
  readEncoding: string | undefined,
  oldText: string,
  newText: string,
  display: string,
): ExactByteEdit | undefined {
  const bom = sniffBom(bytes);
  if (bom !== undefined && bom.encoding !== 'utf-8') return undefined;
  // Without a BOM the file is edited in the encoding it was read in (edit-file.ts): UTF-8 here.
  if (bom === undefined && readEncoding !== undefined && readEncoding !== 'utf-8') return undefined;
  if (looksBinary(bytes, undefined)) return undefined;
  const body = bom === undefined ? bytes : bytes.subarray(bom.length);
  const oldLf = oldText.replaceAll('\r\n', '\n');
  const newLf = newText.replaceAll('\r\n', '\n');
  if (oldLf === '' || oldLf === newLf) return undefined;
  const needle = Buffer.from(oldLf, 'utf8');
  // Lone surrogates would be encoded as U+FFFD and match that instead.
  if (needle.toString('utf8') !== oldLf) return undefined;
  const first = body.indexOf(needle);
  if (first === -1 || body.indexOf(needle, first + 1) !== -1) return undefined;
  if (body.indexOf('\r\n') !== -1 || !isUtf8(body)) return undefined;
  const end = first + needle.length;

  // A window of whole lines around the span, wider than the diff's context, decoded for the diff.
  let from = lineStart(body, first);
  for (let k = 0; k <= contextLines && from > 0; k += 1) from = lineStart(body, from - 1);
  let to = end;
  for (let k = 0; k <= contextLines + 1; k += 1) {
    const next = body.indexOf(newline, to);
    if (next === -1) {
      to = body.length;
      break;
    }
    to = next + 1;
  }
  const window = body.toString('utf8', from, to);
  const start = body.toString('utf8', from, first).length;
  const startLine = 1 + countNewlines(body, first);
  const at = (bom?.length ?? 0) + first;
  return {
    pieces: [bytes.subarray(0, at), Buffer.from(newLf, 'utf8'), bytes.subarray(at + needle.length)],
    startLine,
    endLine: startLine + (newLf.match(/\n/g)?.length ?? 0),
    diff: spliceDiff(display, window, start, start + oldLf.length, newLf, startLine),
  };
}
