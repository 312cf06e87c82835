import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { EntryFacts, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { parentRel } from '../../platform/disk/path-syntax';
import type { Bm25Index } from './bm25/bm25-index';
import type { BuildPacing } from './build-pacing';
import { readIndexable, sameIdentity } from './indexed-file';
import type { IndexedText } from './indexed-file';
import type { IndexStatus } from './index-status';
import type { SavedIndex } from './saved-index';
import type { ScanWatch, SemanticChangeWatch } from './semantic-change-watch';
import { forgetCachedTerms } from './tokenize';

/** Files larger than this are not indexed: logs and dumps, not prose a person searches by meaning. */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024;
const READ_BATCH = 32;

export interface WorkspaceScannerOptions {
  readonly index: Bm25Index;
  /** The index's sandbox: every byte is read through it. */
  readonly sandbox: WorkspaceSandbox;
  /** Undefined when changes are not watched. */
  readonly watch: SemanticChangeWatch | undefined;
  readonly saved: SavedIndex;
  readonly pacing: BuildPacing;
  /** Aborted by close: a scan under way stops at its next batch (what it indexed so far stays). */
  readonly stop: AbortSignal;
  /** The index is closed: nothing is saved from here (close() saves what is left itself). */
  readonly closed: () => boolean;
  /** A file was (re)indexed from this text (the index keeps it for the embedding pass when a model is set). */
  readonly onIndexed: (path: string, read: IndexedText) => void;
  /** The counts moved (`force`: say so now, else at most every so often). */
  readonly onProgress: (force?: boolean) => void;
}

/**
 * The semantic index's walks: a full scan of the workspace, or one path that changed (a file, or a
 * folder walked on its own), with gitignore, persona overlay and deny-list applied. A file is read
 * through the sandbox and counted into the index unless its identity is the one indexed. It keeps
 * which folders the scans walked and how many files they found, checked and read (the status).
 */
export class WorkspaceScanner {
  /** Folders the full scan walked (not ignored): a new file in one of them is indexed without a rescan. */
  readonly #knownDirs = new Set<string>(['']);
  #filesFound = 0;
  #filesChecked = 0;
  #filesRead = 0;
  /** The file being counted into the index (setDocumentSliced): the next waits for it. */
  #counting: Promise<unknown> = Promise.resolve();
  /** A full scan runs (a query does not wait for it once something is indexed). */
  #scanningInFull = false;
  /** A full scan is still walking the workspace (nothing of this scan indexed yet). */
  #walkingInFull = false;

  constructor(private readonly options: WorkspaceScannerOptions) {}

  get scanningInFull(): boolean {
    return this.#scanningInFull;
  }

  get walkingInFull(): boolean {
    return this.#walkingInFull;
  }

  /** What the last scan found and checked, and how many files were read in all (for the status). */
  counts(): Pick<IndexStatus, 'filesFound' | 'filesChecked' | 'filesRead'> {
    return { filesFound: this.#filesFound, filesChecked: this.#filesChecked, filesRead: this.#filesRead };
  }

  /** A file read outside the scan (the embedding pass reads it again): it counts as read too. */
  countRead(): void {
    this.#filesRead += 1;
  }

  /** The highest folder above `path` that the scans have not walked (undefined: its folder is known). */
  highestNewFolder(path: string): string | undefined {
    let dir = parentRel(path);
    let highestNew: string | undefined;
    while (dir !== '' && !this.#knownDirs.has(dir)) {
      highestNew = dir;
      dir = parentRel(dir);
    }
    return highestNew;
  }

  /** Walks the whole workspace; what it no longer holds leaves the index. Answers how many files were indexed again. */
  async fullScan(): Promise<number> {
    const { index, watch, stop } = this.options;
    const round = watch?.begin();
    let ok = false;
    this.#scanningInFull = true;
    try {
      const seen = new Set<string>();
      const reindexed = await this.scan('', round, seen);
      // A scan stopped by close did not see every file: none is dropped for being unseen.
      if (stop.aborted) return reindexed;
      for (const path of [...index.paths()]) if (!seen.has(path)) index.removeDocument(path);
      this.scheduleSave();
      if (reindexed > 0) forgetCachedTerms();
      ok = true;
      return reindexed;
    } finally {
      this.#scanningInFull = false;
      round?.end(ok);
    }
  }

  /**
   * Walks the workspace, or one folder of it (from its parent, entering only it, so that the watch
   * sees the folder as the full scan would), with gitignore, persona overlay and deny-list applied,
   * and indexes what changed. `watch`: each folder is watched before it is read.
   */
  private async scan(dir: string, watch: ScanWatch | undefined, seen = new Set<string>()): Promise<number> {
    const { sandbox, index, saved, pacing, stop, closed, onProgress } = this.options;
    const parent = parentRel(dir);
    const start = await sandbox.resolve(parent === '' ? '.' : parent, 'read');
    if (!start.ok || start.value.facts?.kind !== 'directory') return 0;
    if (dir === '') this.#knownDirs.clear();
    this.#knownDirs.add('');
    // From the parent, the walk keeps `dir` alone; below it, everything.
    const only = new Set([dir.slice(parent === '' ? 0 : parent.length + 1)]);
    const files: { relPath: string; facts: EntryFacts | undefined }[] = [];
    this.#walkingInFull = dir === '';
    try {
      await sandbox.walk(start.value, {
        recursive: true,
        includeHidden: false,
        withFacts: true,
        signal: stop,
        ...(dir === '' ? {} : { only: (folder: string) => (folder === parent ? only : undefined) }),
        visit: (entry) => {
          if (entry.kind === 'directory') {
            this.#knownDirs.add(entry.relPath);
            watch?.folder(entry);
          } else if (entry.kind === 'file' && !sandbox.denyList.deniesRead(entry.relPath))
            files.push({ relPath: entry.relPath, facts: entry.facts });
          return 'continue';
        },
      });
    } finally {
      this.#walkingInFull = false;
    }
    let reindexed = 0;
    this.#filesFound = files.length;
    this.#filesChecked = 0;
    onProgress(true);
    // Read a few dozen files at a time: a restart checks 10,000 files, mostly unchanged (the walk's
    // lstat through the folder descriptor says so without reading them).
    for (let at = 0; at < files.length && !stop.aborted; at += READ_BATCH) {
      const batch = files.slice(at, at + READ_BATCH);
      for (const file of batch) seen.add(file.relPath);
      const changed = await Promise.all(batch.map((file) => this.indexFile(file.relPath, file.facts)));
      reindexed += changed.filter(Boolean).length;
      // The live segment goes to disk once it is big (the build's memory stays bounded).
      if (index.wantsFlush && !closed()) await saved.save().catch(() => undefined);
      // Saved as it builds (at most every few seconds): a restart resumes from what was indexed.
      if (changed.some(Boolean)) this.scheduleSave();
      this.#filesChecked += batch.length;
      onProgress();
      await yieldToLoop();
      if (at + READ_BATCH < files.length) await pacing.pauseForCalls();
    }
    if (reindexed > 0) this.scheduleSave();
    return reindexed;
  }

  /**
   * A path that changed (an event, a tool's write, a stale snippet): looked at through the sandbox.
   * A folder (new, or swapped) is walked; a folder that is gone or became something else takes
   * what was indexed under it along; a file is indexed again when a scan would index it, else dropped.
   * Answers how many files were indexed again.
   */
  async update(relPath: string): Promise<number> {
    const { sandbox, index, watch } = this.options;
    const found = await sandbox.resolve(relPath, 'read', { followFinal: false });
    const now = found.ok && found.value.realRel === relPath ? found.value : undefined;
    const wasFolder = this.#knownDirs.has(relPath);
    if (wasFolder) watch?.forget(relPath);
    const visible = now !== undefined && this.#knownDirs.has(parentRel(relPath)) && !sandbox.isIgnored(now);
    if (visible && now.facts?.kind === 'directory') {
      const seen = new Set<string>();
      const reindexed = await this.scan(relPath, watch?.grow(), seen);
      if (wasFolder) this.dropUnder(relPath, seen, false);
      this.scheduleSave();
      return reindexed;
    }
    if (wasFolder) this.dropUnder(relPath, new Set(), true);
    const indexable = visible && now.facts?.kind === 'file' && !sandbox.denyList.deniesRead(relPath);
    if (!indexable) index.removeDocument(relPath);
    const changed = indexable && (await this.indexFile(relPath, now.facts));
    this.scheduleSave();
    return changed ? 1 : 0;
  }

  /**
   * What was indexed under a folder and not seen there now leaves the index; a folder that is `gone`
   * (or no folder any more) leaves the known ones too, with those under it.
   */
  private dropUnder(folder: string, seen: ReadonlySet<string>, gone: boolean): void {
    const { index } = this.options;
    const under = `${folder}/`;
    for (const path of [...index.paths()]) {
      if (path.startsWith(under) && !seen.has(path)) index.removeDocument(path);
    }
    if (gone) {
      this.#knownDirs.delete(folder);
      for (const dir of [...this.#knownDirs]) if (dir.startsWith(under)) this.#knownDirs.delete(dir);
    }
  }

  /**
   * (Re)indexes one file unless its identity is the one indexed; text files only, up to
   * MAX_INDEXED_FILE_BYTES. A file that is no longer readable that way leaves the index.
   */
  private async indexFile(relPath: string, facts: EntryFacts | undefined): Promise<boolean> {
    const { index, sandbox, pacing } = this.options;
    if (facts !== undefined && sameIdentity(index.versionOf(relPath), facts)) return false;
    if (facts !== undefined && (facts.kind !== 'file' || facts.size > MAX_INDEXED_FILE_BYTES)) {
      index.removeDocument(relPath);
      return false;
    }
    const read = await readIndexable(sandbox, relPath, MAX_INDEXED_FILE_BYTES);
    this.#filesRead += 1;
    if (read === undefined) {
      index.removeDocument(relPath);
      return false;
    }
    if (index.versionOf(relPath) === read.version) return false;
    // One file counted at a time (the batch's reads go on meanwhile): counted side by side, a
    // batch's half-counted chunks would all be held at once.
    const counted = this.#counting.then(() =>
      index.setDocumentSliced(relPath, read.text, read.version, () => pacing.slicePause()),
    );
    this.#counting = counted.catch(() => undefined);
    await counted;
    this.options.onIndexed(relPath, read);
    return true;
  }

  private scheduleSave(): void {
    if (!this.options.closed()) this.options.saved.schedule();
  }
}
