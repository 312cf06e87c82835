import type { StaleEntry } from '../../domain/search/ngram/ngram-service';
import { AnchoredBatch } from '../../platform/disk/anchored-batch';
import type { RootAnchor } from '../../platform/disk/anchored-batch';
import type { SearchEngine } from './search-js-engine';

/**
 * The files a search takes, in walk order (sorted depth-first), handed to its engine in batches
 * that name them the anchored way (AnchoredBatch) while the walk goes on. A batch goes at the
 * engine's batchFiles, at a change of root (the persona overlay mixes its folder into the
 * workspace root), or at `share` bytes (takeShared). `files` holds the files' workspace paths; a
 * batch's offset indexes it.
 */
export class WalkBatches {
  readonly files: string[] = [];
  #flushed = 0;
  readonly #gathering: AnchoredBatch;

  constructor(
    private readonly engine: SearchEngine,
    anchorOf: (inPersona: boolean) => RootAnchor | undefined,
  ) {
    this.#gathering = new AnchoredBatch(anchorOf);
  }

  /** `opened`: the walk's descriptor on the file, handed on with its batch, which closes it (-1: none). */
  take(entry: StaleEntry, opened = -1): void {
    if (this.#gathering.switchesRoot(entry)) this.#flush();
    this.files.push(entry.relPath);
    this.#gathering.add(entry, opened);
    if (this.#gathering.size >= this.engine.batchFiles) this.#flush();
  }

  /**
   * Files whose sizes are known, a batch every `share` bytes of them: the JS engine's candidates
   * shared out among the file workers by size. A selective query's candidates are often a few big
   * bundles (any long word's trigrams are all in them), and one batch of them kept one thread
   * reading 134-200 MB while the other had nothing (issue 32). Infinity: by count only.
   */
  takeShared(entries: readonly StaleEntry[], sizes: readonly number[], share: number, opened?: Int32Array): void {
    let batchBytes = 0;
    entries.forEach((entry, i) => {
      if (this.#gathering.size === 0) batchBytes = 0; // a batch just went (by count, by size, or a new root)
      this.take(entry, opened?.[i]);
      batchBytes += sizes[i] ?? 0;
      if (batchBytes >= share) this.#flush();
    });
  }

  /** A file the search lists without reading it: its folder is not there any more. */
  listOnly(relPath: string): void {
    this.files.push(relPath);
  }

  /** The last batch goes: the walk is over. */
  finish(): void {
    if (this.#flushed < this.files.length) this.#flush();
  }

  #flush(): void {
    const taken = this.#gathering.take();
    // A batch whose root vanished meanwhile searches nothing; its files still count as listed.
    if (taken !== undefined) this.engine.add(this.#flushed, taken);
    this.#flushed = this.files.length;
  }
}
