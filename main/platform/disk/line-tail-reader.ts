import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { LineRange } from './line-range-reader';
import { readLineRange } from './line-range-reader';
import type { OpenedFile } from './opened-file';
import { isAsciiCompatible } from './text-codec';

/**
 * Blocks read backwards: `tail` reads 8 KB at a time; a little more saves syscalls for the common
 * "last 50 to 2,000 lines" while memory stays one block whatever the file's size.
 */
const blockBytes = 64 * 1024;

export interface TailRequest {
  /** The first line wanted, counted from the end: 1 is the last line. */
  readonly fromEnd: number;
  /** The last line wanted, counted from the end (1, the default, is the last line); ≤ fromEnd. */
  readonly toEnd?: number | undefined;
  readonly size: number;
  readonly maxLines: number;
  readonly maxBytes: number;
  readonly encoding: string;
  readonly bomLength: number;
  readonly signal?: AbortSignal | undefined;
}

export type TailRange =
  /** The scan reached the file's start: real line numbers and the exact total. */
  | (LineRange & { readonly counted: true })
  /** Lines counted from the end (firstLine, lastLine negative); the total was not counted. */
  | (Omit<LineRange, 'totalLines'> & { readonly counted: false });

interface Window {
  readonly start: number;
  readonly end: number;
  /** Set when the backward scan reached the start: the file's line count. */
  readonly totalLines?: number;
}

/**
 * Finds the bytes of lines -fromEnd..-toEnd by reading blocks backwards from the end and counting
 * newlines; keeps two offsets, never the bytes. A final newline ends the last line (no empty line
 * after it), as total_lines counts.
 */
async function findWindow(handle: OpenedFile, request: TailRequest, toEnd: number): Promise<Result<Window>> {
  const { size, bomLength, fromEnd } = request;
  if (size <= bomLength) return ok({ start: bomLength, end: bomLength, totalLines: 0 });
  const block = Buffer.allocUnsafe(Math.min(blockBytes, size - bomLength));
  // A newline at size - 1 only ends the last line (seen in the first block: the file's last bytes).
  let end = toEnd === 1 ? size : undefined;
  let found = 0;
  for (let blockEnd = size; blockEnd > bomLength;) {
    if (request.signal?.aborted === true) return err('aborted', 'The read was stopped.');
    const blockStart = Math.max(bomLength, blockEnd - block.length);
    const length = blockEnd - blockStart;
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(block, filled, length - filled, blockStart + filled);
      // Shrunk meanwhile: what is left is read as it now is, from the end we know.
      if (bytesRead === 0)
        return err('concurrent_modification', 'The file got shorter while it was read; read it again.');
      filled += bytesRead;
    }
    const from = blockEnd === size && block[length - 1] === 0x0a ? length - 2 : length - 1;
    for (let at = from < 0 ? -1 : block.lastIndexOf(0x0a, from); at !== -1;) {
      found += 1;
      const position = blockStart + at;
      if (found === toEnd - 1) end = position + 1;
      if (found === fromEnd) return ok({ start: position + 1, end: end ?? position + 1 });
      if (at === 0) break;
      at = block.lastIndexOf(0x0a, at - 1);
    }
    blockEnd = blockStart;
  }
  // The start of the file came first: the file has found + 1 lines.
  return ok({ start: bomLength, end: end ?? bomLength, totalLines: found + 1 });
}

/**
 * Serves lines counted from the end ("the last 50") without reading the file from its start: memory
 * is one block plus the returned lines, and time grows with the lines asked for, not the file.
 * UTF-16/32 newlines are not one byte, so there the file is counted forwards first (two passes).
 */
export async function readLinesFromEnd(handle: OpenedFile, request: TailRequest): Promise<Result<TailRange>> {
  const toEnd = request.toEnd ?? 1;
  const caps = { maxLines: request.maxLines, maxBytes: request.maxBytes, encoding: request.encoding };
  const common = { ...caps, bomLength: request.bomLength, signal: request.signal };
  if (!isAsciiCompatible(request.encoding)) {
    const counted = await readLineRange(handle, { ...common, startLine: Number.MAX_SAFE_INTEGER, maxLines: 0 });
    if (!counted.ok) return counted;
    return positive(handle, request, toEnd, counted.value.totalLines, undefined);
  }
  const window = await findWindow(handle, request, toEnd);
  if (!window.ok) return window;
  const { start, end, totalLines } = window.value;
  if (totalLines !== undefined) return positive(handle, request, toEnd, totalLines, { start, end: request.size });
  const range = await readLineRange(handle, {
    ...common,
    startLine: 1,
    endLine: request.fromEnd - toEnd + 1,
    window: { start, end },
    countTotal: false,
  });
  if (!range.ok) return range;
  const { totalLines: _ignored, ...rest } = range.value;
  const shift = -request.fromEnd - 1;
  return ok({
    ...rest,
    firstLine: -request.fromEnd,
    lastLine: rest.lastLine + shift,
    ...(rest.cutLine === undefined ? {} : { cutLine: rest.cutLine + shift }),
    counted: false,
  });
}

/** The file has `total` lines: the request becomes an ordinary range with real line numbers. */
async function positive(
  handle: OpenedFile,
  request: TailRequest,
  toEnd: number,
  total: number,
  window: { start: number; end: number } | undefined,
): Promise<Result<TailRange>> {
  const startLine = Math.max(1, total - request.fromEnd + 1);
  const endLine = total - toEnd + 1;
  if (endLine < startLine) {
    return ok({
      text: '',
      firstLine: startLine,
      lastLine: startLine - 1,
      totalLines: total,
      truncated: false,
      counted: true,
    });
  }
  const range = await readLineRange(handle, {
    startLine,
    endLine,
    maxLines: request.maxLines,
    maxBytes: request.maxBytes,
    encoding: request.encoding,
    bomLength: request.bomLength,
    signal: request.signal,
    window,
    countTotal: false,
  });
  if (!range.ok) return range;
  return ok({ ...range.value, totalLines: total, counted: true });
}
