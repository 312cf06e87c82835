import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import type { DenyList } from '../../../platform/disk/deny-list';
import type { WatchRound } from '../../../platform/watching/tree-watcher';
import type { NgramIndex } from './ngram-index';
import { indexAgain, staleFromMarks, walkForStale } from './ngram-stale-files';
import type { StaleEntry, StaleWork } from './ngram-stale-files';
import type { NgramTaskQueue } from './ngram-task-queue';
import type { NgramWatch } from './ngram-watch';

/**
 * A background refresh (a walk with a stat per file) after changes, when the watcher cannot vouch
 * for what it heard: coalesced.
 */
const REFRESH_DELAY_MS = 5000;
/** While the watcher is trusted, the paths it heard about are indexed again this soon (coalesced). */
const CATCH_UP_DELAY_MS = 1000;
/** Share of dead file numbers (files indexed again) above which the index is rebuilt from scratch. */
const MAX_DEAD_SHARE = 0.3;

/** What keeping the index fresh asks of the service that holds it (ngram-service.ts). */
export interface UpkeepHost {
  /** The workspace and its index as they are now (each read when a step begins). */
  current(): { readonly sandbox: WorkspaceSandbox | undefined; readonly index: NgramIndex | undefined };
  /** The index built again from scratch (too many of its file numbers are dead). */
  build(sandbox: WorkspaceSandbox): Promise<void>;
  /** The index changed: its status listeners hear of it. */
  emit(): void;
  /** The index changed: saved soon. */
  scheduleSave(): void;
}

/** The service's timing: how soon the paths the watcher heard about are indexed again (tests lengthen it). */
export interface UpkeepTiming {
  readonly catchUpMs?: number;
}

/**
 * Keeps a ready index fresh, on the service's task queue: files a query found stale are indexed
 * again; after changes, a trusted watcher's paths are looked at again (a catch-up), else a refresh
 * walk compares every file with the index.
 */
export class NgramUpkeep {
  /** Files to index again, by workspace path: the next indexPending takes them all. */
  private readonly pending = new Map<string, StaleEntry>();

  constructor(
    private readonly host: UpkeepHost,
    private readonly tasks: NgramTaskQueue,
    private readonly watch: NgramWatch,
    private readonly work: StaleWork,
    private readonly timing: UpkeepTiming,
  ) {}

  /** Files a query found changed or new (it searched them): indexed again in the background. */
  reindex(entries: readonly StaleEntry[]): void {
    for (const entry of entries) this.pending.set(entry.relPath, entry);
    void this.tasks.enqueue(() => this.indexPending());
  }

  /** Something changed while the index is ready; `denyList`: the one the workspace applies now. */
  changed(denyList: DenyList | undefined): void {
    // A trusted watcher names what changed: only that is looked at again (issue 32 item 3).
    if (this.watch.vouching(denyList) !== undefined) {
      this.tasks.enqueueLater('catch-up', this.timing.catchUpMs ?? CATCH_UP_DELAY_MS, () => this.catchUp());
    } else this.refreshSoon();
  }

  /** Compares every file the walk finds with the index: changed and new ones indexed, vanished ones dropped. */
  async refresh(): Promise<void> {
    const { sandbox, index } = this.host.current();
    if (sandbox === undefined || index === undefined) return;
    if (index.deadShare > MAX_DEAD_SHARE) {
      await this.host.build(sandbox);
      return;
    }
    const held = this.work.pause();
    if (held !== undefined) await held;
    const start = await sandbox.resolve('.', 'read');
    if (!start.ok) return;
    const round = this.watch.beginRound(sandbox);
    const gone = await walkForStale(sandbox, index, start.value, round, this.pending, this.work);
    if (gone === undefined) {
      round?.end(false);
      return;
    }
    if (gone.length > 0) {
      index.remove(gone);
      this.host.scheduleSave();
    }
    try {
      await this.indexPending();
    } catch (error) {
      round?.end(false);
      throw error;
    }
    this.endRound(round, sandbox);
  }

  /**
   * Freshness without a walk (issue 32 item 3): while the watcher is trusted, the paths it heard
   * about are looked at through the sandbox, indexed again (or dropped when gone), and then clean.
   * A changed folder (new, renamed, replaced, gone), an untrusted watcher or another deny-list: a
   * full refresh instead, whose walk re-establishes the watches. Public for tests; runs on the
   * queue after changes otherwise.
   */
  async catchUp(): Promise<void> {
    const { sandbox, index } = this.host.current();
    if (sandbox === undefined || index === undefined || !this.watch.watching) return;
    const held = this.work.pause();
    if (held !== undefined) await held;
    const view = this.watch.vouching(sandbox.denyList);
    if (view === undefined) {
      this.refreshSoon();
      return;
    }
    const marks = this.watch.dirtyMarks();
    const gone = await staleFromMarks(sandbox, view, marks.keys(), this.pending);
    if (gone === 'refresh') return this.refreshSoon();
    if (gone.length > 0) {
      index.remove(gone);
      this.host.scheduleSave();
    }
    await this.indexPending();
    this.watch.settle(marks);
  }

  /** The index now holds what the walk found: the watcher may vouch for it (or a refresh is due). */
  endRound(round: WatchRound | undefined, sandbox: WorkspaceSandbox): void {
    if (round !== undefined && !this.watch.endRound(round, sandbox)) this.refreshSoon();
  }

  /**
   * A refresh walk soon: after changes, or when the watcher is not trusted after a full walk
   * (noteChanged needs a ready index).
   */
  private refreshSoon(): void {
    this.tasks.enqueueLater('refresh', REFRESH_DELAY_MS, () => this.refresh());
  }

  private async indexPending(): Promise<void> {
    const { sandbox, index } = this.host.current();
    if (sandbox === undefined || index === undefined || this.pending.size === 0) return;
    const entries = [...this.pending.values()];
    this.pending.clear();
    await indexAgain(index, sandbox, entries, this.work);
    this.host.emit();
    this.host.scheduleSave();
  }
}
