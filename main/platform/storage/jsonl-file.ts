import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { z } from 'zod';

export interface JsonLines<T> {
  readonly records: T[];
  /** 1-based numbers of lines that were not valid records and were left out. */
  readonly skippedLines: number[];
  /** The text ended mid-line: the last write was torn by a crash. */
  readonly tornTail: boolean;
}

/**
 * Parses JSON lines one by one against a schema. A line that is not JSON or not a valid record is
 * skipped and counted, never fatal: a crash can tear at most the last line, and the rest survives.
 */
export function parseJsonLines<S extends z.ZodType>(text: string, schema: S): JsonLines<z.output<S>> {
  const records: z.output<S>[] = [];
  const skippedLines: number[] = [];
  const lines = text.split('\n');
  // Text that ends with '\n' splits into a last empty string; anything else there is a torn line.
  const tornTail = lines.at(-1) !== '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skippedLines.push(index + 1);
      return;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else skippedLines.push(index + 1);
  });
  return { records, skippedLines, tornTail };
}

/** parseJsonLines of a file; a missing file is an empty one. */
export async function readJsonLines<S extends z.ZodType>(file: string, schema: S): Promise<JsonLines<z.output<S>>> {
  try {
    return parseJsonLines(await readFile(file, 'utf8'), schema);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skippedLines: [], tornTail: false };
    throw error;
  }
}

/**
 * A torn last line (no trailing newline) would swallow the next record into one broken line. For a
 * file one writer owns (a transcript: JsonLinesWriter), cut it off before appending: it was never
 * acknowledged as written, and the conversation would otherwise show a damaged line for good.
 * Synchronous: in the common case it reads one byte, and it never waits in libuv's thread pool.
 * A file several processes append to is never cut (appendJsonLines).
 */
export function dropTornTail(fd: number): void {
  if (!endsMidLine(fd)) return;
  // Scan back in blocks for the last newline.
  const block = Buffer.alloc(64 * 1024);
  let end = fstatSync(fd).size;
  while (end > 0) {
    const start = Math.max(0, end - block.length);
    const bytesRead = readSync(fd, block, 0, end - start, start);
    const index = block.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index !== -1) {
      ftruncateSync(fd, start + index + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

export interface AppendOptions {
  readonly mode?: number;
}

/**
 * Appends records as lines and fsyncs: a record reported saved survives a power cut. Several
 * processes may append to one such file (the desktop app and familiar-mcp on one home: the audit
 * log, the persona history, the schedule runs), so a last line without its newline may be
 * another's, seen half-written: it is not cut (cut, that line would be lost once whole), the
 * records start on a line of their own instead. A line torn by a crash stays, and readers skip it.
 */
export async function appendJsonLines(
  file: string,
  records: readonly unknown[],
  options: AppendOptions = {},
): Promise<void> {
  const handle = await open(file, 'a+', options.mode ?? 0o600);
  try {
    // Opened to append: each write lands at the end, whoever wrote meanwhile.
    await handle.appendFile(linesOf(records, endsMidLine(handle.fd)));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * appendJsonLines done in this thread, without fsync: a few small system calls that never wait in
 * libuv's thread pool, where a background index build's reads can queue for tens of milliseconds.
 * For the audit log: a tool call's answer waits for its line, and one fsync per call would cost
 * more than a last line lost to a power cut.
 */
export function appendJsonLinesSync(file: string, records: readonly unknown[], mode = 0o600): void {
  const fd = openSync(file, 'a+', mode);
  try {
    const bytes = Buffer.from(linesOf(records, endsMidLine(fd)));
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/** The records as JSON lines, on a line of their own where the file ends mid-line. */
const linesOf = (records: readonly unknown[], afterTornLine: boolean): string =>
  (afterTornLine ? '\n' : '') + records.map((record) => `${JSON.stringify(record)}\n`).join('');

/** The file's last byte is not a newline (an empty file ends no line). */
function endsMidLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}
