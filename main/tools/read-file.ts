import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { fingerprintOf } from '../platform/disk/fingerprint';
import { notAFile } from '../platform/disk/anchored-read';
import { lineOffsetCache } from '../platform/disk/line-offsets';
import { readLineRange } from '../platform/disk/line-range-reader';
import { readLinesFromEnd } from '../platform/disk/line-tail-reader';
import {
  canonicalEncoding,
  decodeText,
  isAsciiCompatible,
  looksBinary,
  sniffBom,
  sniffBytes,
  unknownEncoding,
} from '../platform/disk/text-codec';
import { noticeSchema } from './kit/output-shapes';
import { defineTool, onGivenPath } from './define-tool';
import { formatBytes } from '../../shared/format-bytes';
import { mediaKindOf } from './media/media-kind';
import { readMedia } from './media/read-media';
import { imageReadOutput } from './media/read-image';
import { pdfReadOutput } from './media/read-pdf';

const input = z
  .object({
    path: z.string().describe('File path relative to the workspace root, e.g. "src/index.ts".'),
    encoding: z
      .string()
      .optional()
      .describe(
        "Text encoding, default utf-8 (a byte order mark wins). E.g. 'utf-16le', 'windows-1251', 'gbk', 'shift_jis', 'latin1'.",
      ),
    start_line: z
      .number()
      .int()
      .refine((line) => line !== 0, 'start_line is 1-based, or negative to count from the end')
      .optional()
      .describe(
        'First line to return, 1-based; negative counts from the end (-50 with no end_line: the last 50 lines).',
      ),
    end_line: z
      .number()
      .int()
      .refine((line) => line !== 0, 'end_line is 1-based, or negative to count from the end')
      .optional()
      .describe('Last line to return, inclusive; negative (-1 is the last line) only with a negative start_line.'),
    start_page: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('PDFs only: the first page to return, 1-based (default 1).'),
    end_page: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('PDFs only: the last page to return, inclusive (default: as many pages as fit in the output limit).'),
  })
  .refine((args) => args.end_line === undefined || args.start_line === undefined || args.end_line >= args.start_line, {
    message: 'end_line must be greater than or equal to start_line',
    path: ['end_line'],
  })
  .refine((args) => args.end_line === undefined || args.end_line > 0 === (args.start_line ?? 1) > 0, {
    message: 'end_line and start_line must both count from the start (positive) or both from the end (negative)',
    path: ['end_line'],
  })
  .refine((args) => args.end_page === undefined || args.start_page === undefined || args.end_page >= args.start_page, {
    message: 'end_page must be greater than or equal to start_page',
    path: ['end_page'],
  });

/** The result type is the output schema's (readFileOutput, below): one source, so the two cannot drift. */
export type ReadFileOutput = z.output<typeof readFileOutput>;

interface Shown {
  readonly text: string;
  readonly lastLine: number;
  readonly totalLines: number;
  readonly truncated: boolean;
  readonly cutLine?: number;
}

/** Cuts a decoded whole file to the requested lines and the output caps, never inside a line. */
function showLines(text: string, startLine: number, endLine: number, maxLines: number, maxBytes: number): Shown {
  const lines: string[] = [];
  let bytes = 0;
  let line = 1;
  let at = 0;
  let truncated = false;
  let cutLine: number | undefined;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    if (line >= startLine && line <= endLine && !truncated) {
      let content = text.slice(at, end);
      if (content.endsWith('\r')) content = content.slice(0, -1);
      const size = Buffer.byteLength(content) + 1;
      if (lines.length >= maxLines || bytes + size > maxBytes) {
        if (lines.length === 0) {
          lines.push(
            Buffer.from(content)
              .subarray(0, maxBytes)
              .toString('utf8')
              .replace(/\uFFFD$/, ''),
          );
          cutLine = line;
        }
        truncated = true;
      } else {
        lines.push(content);
        bytes += size;
      }
    }
    if (newline === -1) break;
    at = newline + 1;
    line += 1;
  }
  const totalLines = text.length === 0 ? 0 : text.endsWith('\n') ? line - 1 : line;
  return {
    text: lines.join('\n'),
    lastLine: startLine + lines.length - 1,
    totalLines,
    truncated,
    ...(cutLine === undefined ? {} : { cutLine }),
  };
}

function notice(shown: Shown, startLine: number, display: string): string | undefined {
  if (shown.cutLine !== undefined) {
    return `[Line ${shown.cutLine} is longer than the output limit; only its start is shown. Use search_in_code on '${display}' to find what you need in it.]`;
  }
  if (startLine > shown.totalLines && shown.totalLines > 0)
    return `[The file has ${shown.totalLines} lines; start_line ${startLine} is past the end.]`;
  if (shown.truncated) {
    return `[Showing lines ${startLine}-${shown.lastLine} of ${shown.totalLines}. Use start_line=${shown.lastLine + 1} to continue.]`;
  }
  return undefined;
}

/** A text file's result: a window of its lines. */
const textReadOutput = z.object({
  kind: z.literal('text'),
  path: z.string(),
  content: z.string(),
  encoding: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  /** Absent when the lines were counted from the end and the file's start was not reached. */
  total_lines: z.number().int().exactOptional(),
  lines_read: z.number().int(),
  truncated: z.boolean(),
  next_start_line: z.number().int().exactOptional().describe('Negative when the read counted from the end.'),
  bytes_read: z.number().int(),
  /** Says what part was shown and how to get the rest (never a silent cut). */
  notice: noticeSchema,
});

export type TextReadOutput = z.output<typeof textReadOutput>;

/** The result's shape, by the file's kind: it types run() and is the outputSchema MCP clients see. */
const readFileOutput = z.discriminatedUnion('kind', [textReadOutput, imageReadOutput, pdfReadOutput]);

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a file in the workspace. A text file returns its content (at most 2,000 lines or 50 KB per call; a notice and next_start_line say how to continue), total_lines and the encoding. ' +
    'Use start_line/end_line for a part of a file, which works for files of any size. A negative start_line counts from the end ' +
    '(start_line=-50: the last 50 lines, read from the end without scanning the file; such reads leave out total_lines unless they reach the start). ' +
    'Images (PNG, JPEG, GIF, WebP) come back as an image with their size and dimensions (kind "image"). ' +
    'PDFs come back as text by page (kind "pdf"; start_page/end_page, pages without a text layer are marked as scanned images). ' +
    'Other binary files are refused (use get_file_info).',
  input,
  output: readFileOutput,
  operations: ['read'],
  returnsContent: true,
  access: onGivenPath('read'),
  async run(args, ctx): Promise<Result<ReadFileOutput>> {
    const { sandbox, limits } = ctx.env;
    const resolved = await sandbox.resolve(args.path, 'read');
    if (!resolved.ok) return resolved;
    const path = resolved.value;
    if (path.facts === undefined)
      return err('file_not_found', `'${path.display}' does not exist. Use list_files to see what is there.`);
    if (path.facts.kind !== 'file') return notAFile(path);
    const requested = args.encoding === undefined ? 'utf-8' : canonicalEncoding(args.encoding);
    if (requested === undefined) return unknownEncoding(args.encoding ?? '');

    return ctx.env.sandbox.withOpenFile(path, async (opened) => {
      const { handle, facts } = opened;
      const head = await handle.readAll(Math.min(sniffBytes, facts.size));
      const media = mediaKindOf(head);
      if (media !== undefined) return await readMedia(media, path, opened, args, ctx);
      if (args.start_page !== undefined || args.end_page !== undefined) {
        return err(
          'invalid_arguments',
          `'${path.display}' is not a PDF: start_page and end_page are for PDFs. Use start_line and end_line.`,
        );
      }
      if (looksBinary(head, args.encoding === undefined ? undefined : requested)) {
        return err(
          'binary_file',
          `'${path.display}' looks binary (${formatBytes(facts.size)}, NUL bytes near the start). Use get_file_info for its type and size. ` +
            "If it is UTF-16 text without a byte order mark, pass encoding 'utf-16le'.",
        );
      }
      const bom = sniffBom(head);
      // What a line range is decoded with: the byte order mark's encoding wins over the argument.
      const encoding = bom?.encoding ?? requested;
      // A part read remembers the file's facts (no hash of bytes it did not read).
      const rememberPartRead = () =>
        ctx.env.readTracker.remember(ctx.conversationId, path.key, { ...fingerprintOf(facts), encoding });
      // What both streamed reads (from the end, or a line range) share.
      const streamed = {
        maxLines: limits.maxOutputLines,
        maxBytes: limits.maxOutputBytes,
        encoding,
        bomLength: bom?.length ?? 0,
        signal: ctx.signal,
      };
      const startLine = args.start_line ?? 1;
      const endLine = args.end_line ?? Number.POSITIVE_INFINITY;

      if (startLine < 0) {
        // Counted from the end: read backwards in blocks, never the whole file (issue 16).
        const tail = await readLinesFromEnd(handle, {
          fromEnd: -startLine,
          toEnd: args.end_line === undefined ? 1 : -args.end_line,
          size: facts.size,
          ...streamed,
        });
        if (!tail.ok) return tail;
        rememberPartRead();
        const read = tail.value;
        return ok(
          read.counted
            ? output(path.display, read, read.firstLine, encoding, facts.size)
            : fromEndOutput(path.display, read, read.firstLine, encoding, facts.size),
        );
      }

      if (args.start_line !== undefined || args.end_line !== undefined) {
        // A line range is streamed whatever the size: memory does not grow with the file.
        // This file version's line offsets: a second read anywhere starts near its line (issue 32).
        const range = await readLineRange(handle, {
          startLine,
          endLine: args.end_line,
          ...streamed,
          offsets: isAsciiCompatible(encoding) ? lineOffsetCache.for(facts, bom?.length ?? 0) : undefined,
        });
        if (!range.ok) return range;
        rememberPartRead();
        return ok(output(path.display, range.value, startLine, encoding, facts.size));
      }

      if (facts.size > limits.maxReadBytes) {
        return err(
          'file_too_large',
          `'${path.display}' is ${formatBytes(facts.size)}; whole-file reads stop at ${formatBytes(limits.maxReadBytes)}. ` +
            'Read it in parts with start_line and end_line (e.g. start_line=1, end_line=2000), or find the part you need with search_in_code.',
          { size: facts.size, limit: limits.maxReadBytes },
        );
      }
      const content = await handle.readAll(facts.size);
      const decoded = decodeText(content, requested);
      if (!decoded.ok) return decoded;
      ctx.env.readTracker.remember(ctx.conversationId, path.key, {
        ...fingerprintOf(facts, content),
        encoding: decoded.value.encoding,
      });
      const shown = showLines(decoded.value.text, startLine, endLine, limits.maxOutputLines, limits.maxOutputBytes);
      return ok(output(path.display, shown, startLine, decoded.value.encoding, content.length));
    });
  },
});

function output(display: string, shown: Shown, startLine: number, encoding: string, bytesRead: number): ReadFileOutput {
  // More to read after a cut: the next line (a cut giant line is not offered again).
  const more = shown.truncated && shown.lastLine < shown.totalLines;
  return windowOutput(display, shown, startLine, encoding, bytesRead, {
    totalLines: shown.totalLines,
    more,
    hint: notice(shown, startLine, display),
  });
}

/**
 * Lines counted from the end whose scan stopped before the file's start: the line numbers stay
 * negative and total_lines is left out rather than paid for with a scan of the whole file.
 */
function fromEndOutput(
  display: string,
  shown: Omit<Shown, 'totalLines'>,
  startLine: number,
  encoding: string,
  bytesRead: number,
): ReadFileOutput {
  const hint =
    shown.cutLine !== undefined
      ? `[Line ${shown.cutLine} (counted from the end) is longer than the output limit; only its start is shown. Use search_in_code on '${display}' to find what you need in it.]`
      : shown.truncated
        ? `[Showing lines ${startLine} to ${shown.lastLine}, counted from the end (-1 is the last line). Use start_line=${shown.lastLine + 1} to continue.]`
        : `[Lines counted from the end (-1 is the last line); the file was not read from its start, so total_lines is not given (get_file_info counts them).]`;
  return windowOutput(display, shown, startLine, encoding, bytesRead, {
    more: shown.truncated && shown.lastLine < -1,
    hint,
  });
}

/** The result for a window of lines, whichever way they were counted. */
function windowOutput(
  display: string,
  shown: Omit<Shown, 'totalLines'>,
  startLine: number,
  encoding: string,
  bytesRead: number,
  window: { readonly totalLines?: number; readonly more: boolean; readonly hint: string | undefined },
): ReadFileOutput {
  const linesRead = Math.max(0, shown.lastLine - startLine + 1);
  return {
    kind: 'text',
    path: display,
    content: shown.text,
    encoding,
    start_line: startLine,
    end_line: linesRead === 0 ? startLine - 1 : shown.lastLine,
    ...(window.totalLines === undefined ? {} : { total_lines: window.totalLines }),
    lines_read: linesRead,
    truncated: shown.truncated,
    ...(window.more ? { next_start_line: shown.lastLine + 1 } : {}),
    bytes_read: bytesRead,
    ...(window.hint === undefined ? {} : { notice: window.hint }),
  };
}
