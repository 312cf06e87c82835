import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../platform/storage/atomic-file';
import { ensureFolder } from '../../platform/storage/folders';
import { readJsonFile } from '../../platform/storage/json-file';
import type { Bm25Index } from './bm25-index';

/** Saving a big index costs tens of milliseconds: at most this often. */
const SAVE_DELAY_MS = 2000;
// 3: versions are identity + content hash (dev:ino:size:mtime:sha1); 4: chunks carry their text's
// hash (the key of their embedding vector). Older files are rebuilt.
const FORMAT = 4;
/** The saved file's envelope; the index itself checks its own shape as it loads (a cache: rebuilt if bad). */
const savedIndexSchema = z.object({ format: z.unknown(), root: z.unknown(), index: z.unknown() });

/**
 * The semantic index's file in the Familiar home: loaded once, saved at most every few seconds
 * after changes, and written for good at close. A cache: a damaged file, another format or another
 * workspace's file is simply rebuilt by the scan that follows.
 */
export class SavedIndex {
  #timer: NodeJS.Timeout | undefined;
  /** How long the last save took: saves during a long build space out so they cost at most a tenth of it. */
  #lastSaveMs = 0;

  constructor(
    private readonly file: string,
    private readonly root: string,
    private readonly index: Bm25Index,
  ) {}

  /** A save is scheduled and not written yet. */
  get unsaved(): boolean {
    return this.#timer !== undefined;
  }

  async load(): Promise<void> {
    const saved = await readJsonFile(this.file, savedIndexSchema);
    if (saved.state !== 'valid') return;
    try {
      const data = saved.value;
      if (data.format === FORMAT && data.root === this.root) this.index.load(data.index);
    } catch {
      // A damaged index file is rebuilt by the scan that follows.
    }
  }

  schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        // A cache: a save that fails (the data folder gone, a full disk) is redone after the next change.
        void this.save().catch(() => undefined);
      },
      Math.max(SAVE_DELAY_MS, 10 * this.#lastSaveMs),
    );
    this.#timer.unref();
  }

  /** Writes the index now; answers its size in bytes. */
  async save(): Promise<number> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const started = Date.now();
    const text = JSON.stringify({ format: FORMAT, root: this.root, index: this.index.toJSON() });
    await ensureFolder(dirname(this.file));
    await writeFileAtomic(this.file, text);
    this.#lastSaveMs = Date.now() - started;
    return Buffer.byteLength(text);
  }
}
