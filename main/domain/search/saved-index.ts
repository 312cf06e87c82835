import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../platform/storage/atomic-file';
import { ensureFolder, listFolder } from '../../platform/storage/folders';
import { readJsonFile } from '../../platform/storage/json-file';
import { openPositionedFile, removeDataFile } from '../../platform/storage/positioned-file';
import type { Bm25Index } from './bm25/bm25-index';
import type { Manifest, SegmentStore } from './bm25/segment-store';

/** Saving costs a flush of what changed: at most this often. */
const SAVE_DELAY_MS = 2000;
const MANIFEST = 'manifest.json';
const SEGMENT = /\.seg$/;
/** The manifest's envelope; the index checks the rest (a cache: rebuilt if bad). */
const manifestSchema = z.object({ format: z.unknown(), root: z.unknown(), segments: z.unknown() });

/**
 * The semantic index's folder in the Familiar home: immutable segment files and a manifest naming
 * them (bm25/bm25-index.ts). Opened once, saved at most every few seconds after changes (a save writes
 * what changed since the last one as a new segment, then the manifest), and for good at close. A
 * cache: a damaged or foreign manifest is simply rebuilt by the scan that follows. The index's
 * earlier format, one JSON file beside the folder, is deleted.
 */
export class SavedIndex implements SegmentStore {
  #timer: NodeJS.Timeout | undefined;
  /** How long the last save took: saves during a long build space out so they cost at most a tenth of it. */
  #lastSaveMs = 0;
  readonly #dir: string;

  constructor(
    /** The old single-file index's name; the segments live in a folder beside it. */
    private readonly file: string,
    private readonly root: string,
    private readonly index: Bm25Index,
  ) {
    this.#dir = `${file.replace(/\.json$/, '')}.segments`;
  }

  /** A save is scheduled and not written yet. */
  get unsaved(): boolean {
    return this.#timer !== undefined;
  }

  async load(): Promise<void> {
    await removeDataFile(this.file).catch(() => undefined);
    await ensureFolder(this.#dir);
    await this.index.load(this, this.root);
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

  /** Writes what changed now; answers the folder's size in bytes. */
  async save(): Promise<number> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const started = Date.now();
    await ensureFolder(this.#dir);
    await this.index.save(this, this.root);
    this.#lastSaveMs = Date.now() - started;
    let bytes = 0;
    for (const name of [...(await this.list()), MANIFEST]) {
      const file = openPositionedFile(join(this.#dir, name));
      bytes += file?.size ?? 0;
      file?.close();
    }
    return bytes;
  }

  async write(name: string, parts: readonly Uint8Array[]) {
    const path = join(this.#dir, name);
    await writeFileAtomic(path, parts);
    const file = openPositionedFile(path);
    if (file === undefined) throw new Error(`${path} could not be opened after writing it`);
    return file;
  }

  open(name: string) {
    return openPositionedFile(join(this.#dir, name));
  }

  async list(): Promise<string[]> {
    return (await listFolder(this.#dir)).filter((name) => SEGMENT.test(name) || name.endsWith('.tmp'));
  }

  remove(name: string): Promise<void> {
    return removeDataFile(join(this.#dir, name));
  }

  async readManifest(): Promise<unknown> {
    const saved = await readJsonFile(join(this.#dir, MANIFEST), manifestSchema);
    return saved.state === 'valid' ? saved.value : undefined;
  }

  writeManifest(manifest: Manifest): Promise<void> {
    return writeFileAtomic(join(this.#dir, MANIFEST), JSON.stringify(manifest));
  }

  close(): Promise<void> {
    return this.index.close();
  }
}
