import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dropTornTail } from './jsonl-file';

/**
 * Appends records to one JSON-lines file, one line each, in call order, through a handle kept open
 * between appends (a transcript takes many small writes per turn). `sync` makes the batch durable
 * (fsync) before resolving; a torn last line left by a crash is cut off when the file is opened.
 */
export class JsonLinesWriter<T> {
  private handle: FileHandle | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  append(records: readonly T[], options: { sync?: boolean } = {}): Promise<void> {
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
      dropTornTail(handle.fd);
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.handle = handle;
    return handle;
  }
}
