import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AnchoredFs } from '../../../platform/disk/anchored-fs';
import type { DenyList } from '../../../platform/disk/deny-list';
import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import { TreeWatcher, watcherVouches } from '../../../platform/watching/tree-watcher';
import type { WatchRound, WatchView } from '../../../platform/watching/tree-watcher';

/**
 * The change watcher as one workspace's index uses it: it vouches for the index (a query answers
 * without walking, a catch-up looks only at the paths it heard about) while it is trusted and the
 * deny-list is the one the last full walk applied. None where it cannot vouch (tree-watcher.ts
 * watcherVouches) or without `anchored`: then every query walks.
 */
export class NgramWatch {
  private readonly watcher: TreeWatcher | undefined;
  /** The deny-list the last full walk applied: another one and the watcher vouches for nothing. */
  private walkedDenyList: DenyList | undefined;

  /** `anchored`: the change watcher watches folders through it. `onChange`: every event it hears. */
  constructor(anchored: AnchoredFs | undefined, onChange: () => void) {
    this.watcher = anchored === undefined || !watcherVouches ? undefined : new TreeWatcher(anchored, onChange);
  }

  /** False when nothing is watched. */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /**
   * Settles once the watcher has heard what was queued: one turn of the event loop. A write another
   * program finished before this query was asked queued its inotify event in the kernel during its
   * write() call, so that event was readable before the request that brought this query; libuv
   * handles every descriptor one poll found ready before it runs setImmediate callbacks, so by then
   * the watcher has marked the path. (An event read in an earlier poll was marked then.)
   */
  hearQueued(): Promise<void> {
    return nextTurn();
  }

  /** The watcher's view when it is trusted and `denyList` is the one the last full walk applied. */
  vouching(denyList: DenyList | undefined): WatchView | undefined {
    if (this.watcher === undefined || denyList !== this.walkedDenyList) return undefined;
    return this.watcher.view();
  }

  /** A full walk begins: the watcher re-establishes its watches as the walk meets each folder. */
  beginRound(sandbox: WorkspaceSandbox): WatchRound | undefined {
    const root = sandbox.anchorOf(false);
    return root === undefined ? undefined : this.watcher?.begin(root.dir);
  }

  /** The index now holds what the walk found: true when the watcher vouches for it (else a refresh is due). */
  endRound(round: WatchRound, sandbox: WorkspaceSandbox): boolean {
    round.end(true);
    this.walkedDenyList = sandbox.denyList;
    return this.watcher?.view() !== undefined;
  }

  /** Paths a tool of this app just wrote: marked at once (TreeWatcher.mark). */
  mark(paths: readonly string[]): void {
    this.watcher?.mark(paths);
  }

  /** The changed paths and the mark of the last event of each: for a catch-up, then `settle`. */
  dirtyMarks(): Map<string, number> {
    return this.watcher?.dirtyMarks() ?? new Map<string, number>();
  }

  /** A catch-up looked at these paths after their marks: those that did not change again are clean. */
  settle(marks: ReadonlyMap<string, number>): void {
    this.watcher?.settle(marks);
  }

  close(): void {
    this.watcher?.close();
  }
}
