import { isUtf8 } from 'node:buffer';
import type { OpenedFile } from './opened-file';
import iconv from 'iconv-lite';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { CHECKPOINT_LINES } from './line-offsets';
import type { LineOffsets } from './line-offsets';
import { EVERY_NEWLINE, newlineScanner } from './newline-scan';
import type { NewlineScanner } from './newline-scan';
import { decodeText, isAsciiCompatible } from './text-codec';

/** Read size: big enough that syscalls do not dominate, small enough that memory stays flat. */
const chunkBytes = 1 << 20;

export interface LineRangeRequest {
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine?: number | undefined;
  readonly maxLines: number;
  readonly maxBytes: number;
  /** Canonical encoding (after BOM detection) and the BOM's length to skip. */
  readonly encoding: string;
  readonly bomLength: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * Where line `startLine` counts from when not the file's start: a byte offset known to begin a
   * line (a read from the end found it), and where to stop. Byte-wise encodings only.
   */
  readonly window?: { readonly start: number; readonly end: number } | undefined;
  /** False: stop once the range is served instead of scanning on to count total_lines. */
  readonly countTotal?: boolean | undefined;
  /**
   * This file version's line offsets (line-offsets.ts): the scan starts at the checkpoint before
   * `startLine`, records the checkpoints it passes, and takes total_lines from them once known.
   * Byte-wise encodings and reads from the start only (ignored otherwise).
   */
  readonly offsets?: LineOffsets | undefined;
}

export interface LineRange {
  /** The lines, joined with '\n' (CRLF shown as LF), without a final newline. */
  readonly text: string;
  readonly firstLine: number;
  /** Last line returned (firstLine - 1 when none). */
  readonly lastLine: number;
  readonly totalLines: number;
  /** True when the caps (not end_line or the end of the file) stopped the read. */
  readonly truncated: boolean;
  /** Set when a single line was longer than the byte cap and only its start is shown. */
  readonly cutLine?: number;
}

async function* fileChunks(
  handle: OpenedFile,
  from: number,
  to: number,
  signal: AbortSignal | undefined,
  scanner: NewlineScanner,
): AsyncGenerator<Buffer> {
  // A window (a read from the end) is often a few KB: no need for a whole chunk's buffer.
  const size = Math.max(1, Math.min(chunkBytes, to - from));
  // Two buffers: the next read is under way while the caller scans this one (it is done with a
  // buffer when it asks for the next chunk, and the read after that reuses it). The scanner's own,
  // where it finds newlines fastest.
  const buffers = scanner.buffers(size);
  const readAt = (buffer: Buffer, position: number) =>
    position >= to
      ? Promise.resolve(0)
      : handle.read(buffer, 0, Math.min(buffer.length, to - position), position).then((read) => read.bytesRead);
  let turn = 0;
  let position = from;
  let next = readAt(buffers[0], position);
  try {
    for (;;) {
      if (signal?.aborted === true) return;
      const bytesRead = await next;
      if (bytesRead === 0) return;
      const buffer = buffers[turn] as Buffer;
      position += bytesRead;
      turn = 1 - turn;
      next = readAt(buffers[turn] as Buffer, position);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // A caller that stopped early leaves one read in flight: settle it quietly.
    next.catch(() => undefined);
  }
}

// UTF-16/32 newlines are not the single byte 0x0A: transcode to UTF-8 on the fly and scan that.
async function* transcoded(chunks: AsyncGenerator<Buffer>, encoding: string): AsyncGenerator<Buffer> {
  const decoder = iconv.getDecoder(encoding, { stripBOM: false });
  for await (const chunk of chunks) yield Buffer.from(decoder.write(chunk), 'utf8');
  const rest = decoder.end();
  if (rest !== undefined && rest !== '') yield Buffer.from(rest, 'utf8');
}

/**
 * Serves a line range of a file of any size by streaming: memory holds one chunk plus the returned
 * lines, never the file. Keeps scanning after the range only to count newlines for total_lines.
 */
export async function readLineRange(handle: OpenedFile, request: LineRangeRequest): Promise<Result<LineRange>> {
  const byteWise = isAsciiCompatible(request.encoding);
  const offsets = byteWise && request.window === undefined ? request.offsets : undefined;
  // The checkpoint at or before the start line (line 1 at the start when none is known).
  const checkpoint =
    offsets === undefined
      ? 0
      : Math.min(Math.floor((Math.max(1, request.startLine) - 1) / CHECKPOINT_LINES), offsets.checkpoints.length - 1);
  const from = offsets?.checkpoints[checkpoint] ?? request.window?.start ?? request.bomLength;
  const scanner = newlineScanner();
  const raw = fileChunks(handle, from, request.window?.end ?? Number.POSITIVE_INFINITY, request.signal, scanner);
  const countTotal = request.countTotal ?? true;
  const chunks = byteWise ? raw : transcoded(raw, request.encoding);
  const endLine = request.endLine ?? Number.POSITIVE_INFINITY;
  const knownTotal = offsets?.totalLines;

  let line = 1 + checkpoint * CHECKPOINT_LINES; // the line the next unscanned byte belongs to
  let newlines = line - 1;
  /** The file offset of the chunk being scanned (byte-wise reads), for checkpoints. */
  let chunkStart = from;
  let reachedEnd = true;
  /** Newlines up to which checkpoints are known: one is due when `line` passes the next multiple. */
  let nextCheckpointLine =
    offsets === undefined ? Number.POSITIVE_INFINITY : offsets.checkpoints.length * CHECKPOINT_LINES + 1;
  let lastByte = -1;
  let collecting = request.startLine <= line;
  let finished = false; // collection over; only counting remains
  let truncated = false;
  let cutLine: number | undefined;
  const lines: Buffer[] = [];
  let keptBytes = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  const takeLine = (parts: Buffer[]) => {
    let bytes = Buffer.concat(parts);
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    if (lines.length >= request.maxLines || keptBytes + bytes.length > request.maxBytes) {
      if (lines.length === 0) {
        // One line longer than the whole budget: show its start rather than nothing.
        lines.push(bytes.subarray(0, request.maxBytes));
        cutLine = line;
      }
      truncated = true;
      finished = true;
      return;
    }
    lines.push(bytes);
    keptBytes += bytes.length + 1;
    if (line >= endLine) finished = true;
  };

  const passLine = (newline: number) => {
    newlines += 1;
    line += 1;
    if (line === nextCheckpointLine && chunkStart + newline + 1 <= (offsets as LineOffsets).size) {
      (offsets as LineOffsets).checkpoints.push(chunkStart + newline + 1);
      nextCheckpointLine += CHECKPOINT_LINES;
    }
  };
  for await (const chunk of chunks) {
    // Done, and total_lines is not wanted or already known: the rest of the file is not scanned.
    if (finished && (!countTotal || knownTotal !== undefined)) {
      reachedEnd = false;
      break;
    }
    lastByte = chunk[chunk.length - 1] ?? lastByte;
    let at = 0;
    while (at < chunk.length) {
      if (finished || !collecting) {
        if (finished && !countTotal) break;
        // Passing lines: find the newline where something happens (the next checkpoint is due, the
        // range starts), counting the others in bulk.
        // (A checkpoint past the file's size at this version is never due: the file grew meanwhile.)
        const untilCheckpoint = nextCheckpointLine > line ? nextCheckpointLine - line : EVERY_NEWLINE;
        const untilStart = finished ? EVERY_NEWLINE : request.startLine - line;
        const newline = scanner.nth(chunk, at, Math.min(untilCheckpoint, untilStart, EVERY_NEWLINE));
        if (newline === -1) {
          newlines += scanner.seen;
          line += scanner.seen;
          break;
        }
        newlines += scanner.seen - 1;
        line += scanner.seen - 1;
        passLine(newline);
        at = newline + 1;
        if (!finished && line >= request.startLine) collecting = true;
        continue;
      }
      const newline = chunk.indexOf(0x0a, at);
      const end = newline === -1 ? chunk.length : newline;
      // Keep at most a little more than the budget of a giant line: memory stays bounded.
      if (pendingBytes <= request.maxBytes) {
        const piece = Buffer.from(chunk.subarray(at, Math.min(end, at + request.maxBytes + 4 - pendingBytes)));
        pending.push(piece);
        pendingBytes += piece.length;
      }
      if (newline === -1) break;
      takeLine(pending);
      pending = [];
      pendingBytes = 0;
      passLine(newline);
      at = newline + 1;
    }
    chunkStart += chunk.length;
  }
  if (request.signal?.aborted === true) return err('aborted', 'The read was stopped.');
  if (collecting && !finished && pendingBytes > 0) takeLine(pending);
  // Starting at a checkpoint, the byte before it was a newline: an empty rest adds no line.
  const counted = newlines + (lastByte !== -1 && lastByte !== 0x0a ? 1 : 0);
  const totalLines = reachedEnd || knownTotal === undefined ? counted : knownTotal;
  if (offsets !== undefined && reachedEnd && countTotal && chunkStart === offsets.size) offsets.totalLines = counted;

  const joined = Buffer.concat(lines.flatMap((bytes, i) => (i === 0 ? [bytes] : [Buffer.from([0x0a]), bytes])));
  let text: string;
  if (cutLine !== undefined) {
    let end = joined.length;
    while (byteWise && request.encoding === 'utf-8' && end > 0 && !isUtf8(joined.subarray(0, end))) end -= 1;
    text = byteWise ? iconv.decode(joined.subarray(0, end), request.encoding) : joined.toString('utf8');
  } else if (byteWise) {
    const decoded = decodeText(joined, request.encoding);
    if (!decoded.ok) return decoded;
    text = decoded.value.text;
  } else {
    text = joined.toString('utf8');
  }
  return ok({
    text,
    firstLine: request.startLine,
    lastLine: request.startLine + lines.length - 1,
    totalLines,
    truncated,
    ...(cutLine === undefined ? {} : { cutLine }),
  });
}
