import type { AnchorMode, DirRef } from './anchored-fs';
import { closeOpened } from './walk-opened-files';
import type { WalkEntry } from './workspace-walker';

/**
 * Files named the anchored way, for a thread that has no sandbox of its own: each by its folder's
 * real name under a root held open by the main thread, and that folder's identity as the walk saw
 * it. The worker opens the folders component by component without following links, checks each is
 * still the folder walked, and opens the files with O_NOFOLLOW (anchored-fs.ts explains the modes).
 */
export interface AnchoredFiles {
  readonly mode: 'proc-fd' | 'checked-path';
  readonly root: { readonly fd: number; readonly path: string; readonly dev: number; readonly ino: number };
  readonly dirs: readonly { readonly rel: string; readonly dev: number; readonly ino: number }[];
  /** Per file: the index of its folder in `dirs`. */
  readonly dirOf: Int32Array;
  readonly names: readonly string[];
  /** 'refuse': regular files with several hard links are skipped, as the sandbox refuses to read them. */
  readonly hardLinks: 'refuse' | 'allow';
  /**
   * Per file: a descriptor the walk already opened and confirmed (WalkEntry.opened), or -1. Only in
   * batches searched in the main thread (a worker thread could outlive the call that closes them).
   * The job owns them: it closes each, read or not (anchored-opener.ts).
   */
  readonly opened?: Int32Array | undefined;
}

/** A root as a worker thread needs it: the descriptor the main thread holds, and how to use it. */
export interface RootAnchor {
  readonly mode: AnchorMode;
  readonly dir: DirRef;
  readonly hardLinks: 'refuse' | 'allow';
}

/**
 * Gathers files from a walk into AnchoredFiles batches for the worker threads: one root per batch
 * (the overlay mixes the persona folder into the workspace root), each folder listed once.
 */
export class AnchoredBatch {
  #dirs: { rel: string; dev: number; ino: number }[] = [];
  #dirIndex = new Map<string, number>();
  #dirOf: number[] = [];
  #names: string[] = [];
  #opened: number[] = [];
  #inPersona: boolean | undefined;

  constructor(private readonly anchorOf: (inPersona: boolean) => RootAnchor | undefined) {}

  get size(): number {
    return this.#names.length;
  }

  /** True when `entry` belongs to another root than the files gathered so far (take() first). */
  switchesRoot(entry: Pick<WalkEntry, 'inPersona'>): boolean {
    return this.#inPersona !== undefined && this.#inPersona !== entry.inPersona;
  }

  /** `opened`: the walk's descriptor on the file, handed on with the batch (-1: none). */
  add(entry: Pick<WalkEntry, 'inPersona' | 'dirRealRel' | 'dirId' | 'name'>, opened = -1): void {
    this.#inPersona = entry.inPersona;
    let index = this.#dirIndex.get(entry.dirRealRel);
    if (index === undefined) {
      index = this.#dirs.length;
      this.#dirs.push({ rel: entry.dirRealRel, dev: entry.dirId.dev, ino: entry.dirId.ino });
      this.#dirIndex.set(entry.dirRealRel, index);
    }
    this.#dirOf.push(index);
    this.#names.push(entry.name);
    this.#opened.push(opened);
  }

  /** The files gathered so far as one batch (undefined when empty or the root is gone), and a fresh start. */
  take(): AnchoredFiles | undefined {
    const inPersona = this.#inPersona;
    const batch =
      this.#names.length === 0 || inPersona === undefined ? undefined : this.#build(this.anchorOf(inPersona));
    // Descriptors no batch took (its root is gone) are closed here.
    if (batch === undefined) closeOpened(Int32Array.from(this.#opened));
    this.#dirs = [];
    this.#dirIndex = new Map();
    this.#dirOf = [];
    this.#names = [];
    this.#opened = [];
    this.#inPersona = undefined;
    return batch;
  }

  #build(anchor: RootAnchor | undefined): AnchoredFiles | undefined {
    if (anchor === undefined) return undefined;
    const { dir } = anchor;
    return {
      mode: anchor.mode,
      root: { fd: dir.fd, path: dir.path, dev: dir.dev, ino: dir.ino },
      dirs: this.#dirs,
      dirOf: Int32Array.from(this.#dirOf),
      names: this.#names,
      hardLinks: anchor.hardLinks,
      ...(this.#opened.some((fd) => fd >= 0) ? { opened: Int32Array.from(this.#opened) } : {}),
    };
  }
}
