import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { transcriptRecordSchema } from './transcript-records';
import type { TranscriptRecord } from './transcript-records';

export interface LoadedTranscript {
  readonly records: TranscriptRecord[];
  /** 1-based numbers of lines that were not valid records and were left out. */
  readonly skippedLines: number[];
  /** The file ended mid-line: the last write was torn by a crash. */
  readonly tornTail: boolean;
}

/**
 * Reads a JSON-lines transcript. A line that is not JSON or not a valid record is skipped and
 * counted, never fatal: a crash can tear at most the last line, and everything before it survives.
 */
export async function readTranscript(path: string): Promise<LoadedTranscript> {
  return parseTranscript(await readFile(path, 'utf8'));
}

export function parseTranscript(text: string): LoadedTranscript {
  const records: TranscriptRecord[] = [];
  const skippedLines: number[] = [];
  const lines = text.split('\n');
  // A file that ends with '\n' splits into a last empty string; anything else there is a torn line.
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
    const parsed = transcriptRecordSchema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else skippedLines.push(index + 1);
  });
  return { records, skippedLines, tornTail };
}

/**
 * Appends records to one transcript, one JSON line each, in call order. `sync` makes the batch
 * durable (fsync) before resolving: the loop asks for it at every turn boundary, so a crash loses
 * at most the turn in flight.
 */
export class TranscriptWriter {
  private handle: FileHandle | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  append(records: readonly TranscriptRecord[], options: { sync?: boolean } = {}): Promise<void> {
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
    const run = this.queue.then(async () => {
      const handle = await this.openHandle();
      if (text !== '') await handle.write(text);
      if (options.sync === true) await handle.sync();
    });
    // Keep the chain alive after a failure so later appends still run (and report their own errors).
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every append queued so far has been written. */
  flushed(): Promise<void> {
    return this.queue;
  }

  /** Waits for queued writes and closes the file; a later append reopens it. */
  close(): Promise<void> {
    const run = this.queue.then(async () => {
      const handle = this.handle;
      this.handle = undefined;
      await handle?.close();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async openHandle(): Promise<FileHandle> {
    if (this.handle !== undefined) return this.handle;
    const handle = await open(this.path, 'a+', 0o600);
    try {
      await dropTornTail(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.handle = handle;
    return handle;
  }
}

/**
 * A torn last line (no trailing newline) would swallow the next record into one broken line. Cut it
 * off before the first append: it was never acknowledged as written, and readers skip it anyway.
 */
async function dropTornTail(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  // Scan back in blocks for the last newline.
  const block = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - block.length);
    const { bytesRead } = await handle.read(block, 0, end - start, start);
    const index = block.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index !== -1) {
      await handle.truncate(start + index + 1);
      return;
    }
    end = start;
  }
  await handle.truncate(0);
}
