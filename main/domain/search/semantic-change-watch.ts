import type { AnchoredFs } from '../../platform/disk/anchored-fs';
import { isPersonaPath } from '../../platform/disk/workspace-sandbox';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { WalkEntry } from '../../platform/disk/workspace-walker';
import { TreeWatcher } from '../../platform/watching/tree-watcher';

/** A scan's part in the watch: each folder it meets is watched before it is read. */
export interface ScanWatch {
  folder(entry: WalkEntry): void;
}

/** A full scan's part: also says when it is over (`ok`: the index holds what it found). */
export interface FullScanWatch extends ScanWatch {
  end(ok: boolean): void;
}

/** What changed since the last full scan, while the watch vouches for it. */
export interface WatchedChanges {
  /** Workspace paths (files or folders) named by an event. */
  readonly paths: readonly string[];
  /** The index holds what these paths are now: clean, unless they changed again meanwhile. */
  settle(): void;
}

/**
 * The semantic index's change feed, on the same tree watcher as search_in_code's index (one
 * non-recursive watch per folder a scan walked, opened through the folder's descriptor, names only:
 * whatever it reports is resolved and read through the sandbox again). A full scan establishes the
 * watches as it walks; until one has, or after the watcher lost track (an overflow, an ignore file
 * changed, a storm of events, a folder it could not watch), `changes()` answers undefined and the
 * index scans in full (by identity: unchanged files are not read).
 *
 * With the persona overlay, the persona folder has its own watcher: its events count for persona
 * names only, and the workspace's own files of those names (hidden by the overlay) count for none.
 */
export class SemanticChangeWatch {
  readonly #workspace: TreeWatcher;
  readonly #persona: TreeWatcher | undefined;

  constructor(
    anchored: AnchoredFs,
    private readonly sandbox: WorkspaceSandbox,
  ) {
    // Nothing to do per event: the next query asks what changed (changes()).
    const onEvent = () => undefined;
    this.#workspace = new TreeWatcher(anchored, onEvent);
    this.#persona = sandbox.workspaceRoot === sandbox.personaDir ? undefined : new TreeWatcher(anchored, onEvent);
  }

  /** A full scan begins at the workspace root (undefined: a root is missing, nothing is watched). */
  begin(): FullScanWatch | undefined {
    const workspace = this.sandbox.anchorOf(false);
    if (workspace === undefined) return undefined;
    const rounds = new Map([[false, this.#workspace.begin(workspace.dir)]]);
    const persona = this.#persona === undefined ? undefined : this.sandbox.anchorOf(true);
    if (this.#persona !== undefined && persona !== undefined) rounds.set(true, this.#persona.begin(persona.dir));
    return {
      folder: (entry) => rounds.get(entry.inPersona)?.folder(entry.dir, entry.name, entry.relPath),
      end: (ok) => {
        for (const round of rounds.values()) round.end(ok);
      },
    };
  }

  /** A folder that appeared since the full scan is walked: its folders are watched as it goes. */
  grow(): ScanWatch {
    const workspace = this.#workspace.grow();
    const persona = this.#persona?.grow();
    return {
      folder: (entry) => (entry.inPersona ? persona : workspace)?.folder(entry.dir, entry.name, entry.relPath),
    };
  }

  /** A folder is gone or renamed: the watches under its old name go. */
  forget(relPath: string): void {
    (this.#persona !== undefined && isPersonaPath(relPath) ? this.#persona : this.#workspace).forget(relPath);
  }

  /** What changed, or undefined when the watch cannot vouch for it (then scan in full). */
  changes(): WatchedChanges | undefined {
    const overlay = this.#persona !== undefined;
    const watchers = [
      { watcher: this.#workspace, counts: (path: string) => !overlay || !isPersonaPath(path) },
      ...(this.#persona === undefined ? [] : [{ watcher: this.#persona, counts: isPersonaPath }]),
    ];
    if (watchers.some(({ watcher }) => watcher.view() === undefined)) return undefined;
    const marks = watchers.map(({ watcher }) => watcher.dirtyMarks());
    const paths = watchers.flatMap(({ counts }, at) => [...marks[at]!.keys()].filter(counts));
    return {
      paths,
      settle: () => watchers.forEach(({ watcher }, at) => watcher.settle(marks[at]!)),
    };
  }

  close(): void {
    this.#workspace.close();
    this.#persona?.close();
  }
}
