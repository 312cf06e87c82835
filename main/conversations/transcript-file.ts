import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dropTornTail, parseJsonLines } from '../storage/jsonl-file';
import type { JsonLines } from '../storage/jsonl-file';
import { transcriptRecordSchema } from './transcript-records';
import type { TranscriptRecord } from './transcript-records';

export type LoadedTranscript = JsonLines<TranscriptRecord>;

/** Reads a JSON-lines transcript; a torn or invalid line is skipped and counted, never fatal. */
export async function readTranscript(path: string): Promise<LoadedTranscript> {
  return parseTranscript(await readFile(path, 'utf8'));
}

export const parseTranscript = (text: string): LoadedTranscript => parseJsonLines(text, transcriptRecordSchema);

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
