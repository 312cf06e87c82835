import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AnchoredFs } from '../../../platform/disk/anchored-fs';
import type { FsWorkerPool } from '../../../platform/search-engines/fs-worker-pool';
import type { ForegroundGate } from '../../../platform/search-engines/foreground-gate';
import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import { dataFileExists } from '../../../platform/storage/binary-file';
import { WorkspaceNgram } from './ngram-service';

/** The trigram indexes of the workspaces opened in this run, one file each under `dir`. */
export class NgramIndexes {
  private readonly byRoot = new Map<string, WorkspaceNgram>();
  private closed = false;

  /** `racyMs`: tests lower it (their files are all just written). `anchored`: watch the workspaces. */
  constructor(
    private readonly dir: string,
    private readonly workers: FsWorkerPool,
    private readonly options: {
      readonly racyMs?: number;
      readonly anchored?: AnchoredFs;
      /** Tool calls hold it while they run: builds, refreshes and catch-ups wait meanwhile. */
      readonly foreground?: ForegroundGate;
      /** How soon the paths the watcher heard about are indexed again (tests lengthen it). */
      readonly catchUpMs?: number;
      /** An index became ready (built or loaded): the garbage its work left may be collected. */
      readonly onReady?: () => void;
      /** This workspace's index started (true) or stopped (false) loading or building. */
      readonly onWorking?: (workspaceRoot: string, working: boolean) => void;
    } = {},
  ) {}

  for(workspaceRoot: string): WorkspaceNgram {
    let index = this.byRoot.get(workspaceRoot);
    if (index === undefined) {
      index = new WorkspaceNgram(
        this.fileOf(workspaceRoot),
        this.workers,
        this.options.racyMs,
        this.options.anchored,
        this.options,
      );
      this.byRoot.set(workspaceRoot, index);
      const { onReady, onWorking } = this.options;
      if (onReady !== undefined || onWorking !== undefined) {
        let was = index.status().state;
        index.onStatus((status) => {
          const working = status.state === 'loading' || status.state === 'building';
          if (working !== (was === 'loading' || was === 'building')) onWorking?.(workspaceRoot, working);
          if (status.state === 'ready' && was !== 'ready') onReady?.();
          was = status.state;
        });
      }
    }
    return index;
  }

  /**
   * A workspace was opened: its saved index, if any, opens in the background (WorkspaceNgram.openSaved).
   * One never searched gets nothing, not even an entry; once closed, no workspace does.
   */
  openSaved(workspaceRoot: string, sandbox: WorkspaceSandbox): void {
    if (this.closed || (!this.byRoot.has(workspaceRoot) && !dataFileExists(this.fileOf(workspaceRoot)))) return;
    this.for(workspaceRoot).openSaved(sandbox);
  }

  /** Where the index of `workspaceRoot` is saved. */
  private fileOf(workspaceRoot: string): string {
    return join(this.dir, `${createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 32)}.ngram`);
  }

  /** Every open index hears of a change (the watcher, a tool's write: its workspace and paths). */
  noteChanged(workspaceRoot?: string, paths: readonly string[] = []): void {
    for (const [root, index] of this.byRoot) index.noteChanged(root === workspaceRoot ? paths : []);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.byRoot.values()].map((index) => index.close()));
  }
}
