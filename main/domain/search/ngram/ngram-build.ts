import { AnchoredBatch } from '../../../platform/disk/anchored-batch';
import type { FsWorkerPool } from '../../../platform/search-engines/fs-worker-pool';
import type { WatchRound } from '../../../platform/watching/tree-watcher';
import type { WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import type { NgramIndex } from './ngram-index';

/** Files per worker job (one segment): bigger segments repeat fewer keys; the worker's sort stays small. */
export const FILES_PER_JOB = 1024;

export interface FillOptions {
  /** Files changed less than this before they were read are marked racy (ngram-service.ts). */
  readonly racyMs: number;
  readonly signal: AbortSignal;
  /** The change watcher's round: it watches each folder as the walk meets it. */
  readonly round: WatchRound | undefined;
  readonly onWalked: () => void;
  readonly onSegment: () => void;
  /**
   * Asked before each step (a slice of the walk, a worker job, adding a segment): a promise holds
   * the build until it settles (while a tool call runs: foreground-gate.ts).
   */
  readonly pause: () => Promise<void> | undefined;
}

/**
 * A full build: one walk of the workspace (gitignore, hidden names and the deny-list applied; the
 * persona overlay's files are searched by every query, never indexed) hands files to the file
 * workers in segments of FILES_PER_JOB while it goes on, as many at once as there are workers.
 * Throws when the walk or a worker fails; the caller ends the watcher's round then.
 */
export async function fillIndex(
  index: NgramIndex,
  sandbox: WorkspaceSandbox,
  workers: FsWorkerPool,
  options: FillOptions,
): Promise<void> {
  const { round, signal, pause } = options;
  const jobs: Promise<void>[] = [];
  let inFlight = 0;
  const waiting: { paths: string[]; batch: AnchoredBatch }[] = [];
  let resuming = false;
  const launch = () => {
    const paused = pause();
    if (paused !== undefined) {
      // A tool call runs: no new job now; launched when it is over (or by the loop at the end).
      if (!resuming) {
        resuming = true;
        void paused.then(() => {
          resuming = false;
          launch();
        });
      }
      return;
    }
    while (inFlight < workers.size && waiting.length > 0) {
      const { paths, batch } = waiting.shift()!;
      const files = batch.take();
      if (files === undefined) continue;
      inFlight += 1;
      const job = workers.indexFiles(files, options.racyMs, signal).then(async (segment) => {
        inFlight -= 1;
        const held = pause();
        if (held !== undefined) await held;
        index.add(paths, segment);
        options.onSegment();
        launch();
      });
      job.catch(() => undefined); // awaited below
      jobs.push(job);
    }
  };
  let paths: string[] = [];
  let batch = new AnchoredBatch((inPersona) => sandbox.anchorOf(inPersona));
  const start = await sandbox.resolve('.', 'read');
  if (!start.ok) throw new Error(start.error.message);
  const walked = await sandbox.walk(start.value, {
    recursive: true,
    includeHidden: false,
    signal,
    pause,
    visit: (entry) => {
      if (entry.kind === 'directory' && !entry.inPersona) round?.folder(entry.dir, entry.name, entry.relPath);
      if (entry.kind !== 'file' || entry.inPersona) return 'continue';
      if (sandbox.denyList.deniesRead(entry.relPath)) return 'continue';
      paths.push(entry.relPath);
      batch.add(entry);
      options.onWalked();
      if (paths.length >= FILES_PER_JOB) {
        waiting.push({ paths, batch });
        paths = [];
        batch = new AnchoredBatch((inPersona) => sandbox.anchorOf(inPersona));
        launch();
      }
      return 'continue';
    },
  });
  if (!walked.ok) throw new Error(walked.error.message);
  if (paths.length > 0) waiting.push({ paths, batch });
  while (waiting.length > 0 || jobs.length > 0) {
    const paused = pause();
    if (paused !== undefined) await paused;
    launch();
    await Promise.all(jobs.splice(0));
  }
}
