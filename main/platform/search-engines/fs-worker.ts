import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { presizeDescriptorTable } from '../disk/descriptor-table';
import { checkCounts } from './count-checks';
import type { CountCheckJob, CountChecks } from './count-checks';
import { createFsJobs } from './fs-worker-jobs';
import { createNgramExtractor } from './ngram-extract';
import type { NgramSegment } from './ngram-types';
import type { AnchoredFiles } from '../disk/anchored-batch';
import type { SearchJob, SearchJobResult, StatRows } from './search-types';

/**
 * The file workers' entry (fs-worker-pool.ts runs it in piscina's threads): a real module, built by
 * electron-vite as out/main/fs-worker.js and by the bench as out/bench/fs-worker.mjs; under vitest
 * fs-worker-source.mjs loads this source through jiti.
 */
export type FsTask =
  | { readonly kind: 'stat'; readonly files: AnchoredFiles }
  | { readonly kind: 'search'; readonly job: SearchJob }
  | { readonly kind: 'ngrams'; readonly files: AnchoredFiles; readonly racyMs: number }
  | { readonly kind: 'check'; readonly job: CountCheckJob }
  /**
   * A thread started ahead of the work it will get (fs-worker-pool.ts warm): it runs its search
   * code once, and with `presize` grows the process's descriptor table (descriptor-table.ts).
   */
  | { readonly kind: 'start'; readonly presize?: boolean };

/** Nice value of the background threads (index builds): the lowest priority. */
const BACKGROUND_NICE = 19;

const background = workerData as { background?: boolean; hold?: Int32Array } | null;

// On Linux a nice value belongs to a thread, so this lowers only this worker thread. Elsewhere it
// would lower the whole app (macOS) or its priority class (Windows): there the threads stay as they are.
if (background?.background === true && process.platform === 'linux') {
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // Not allowed (a sandboxed container): the build runs at normal priority, nothing else changes.
  }
}

const jobs = createFsJobs();
let warmed = false;
let extractNgrams: ReturnType<typeof createNgramExtractor> | undefined; // its 2 MB bitmap on first use

export function runFsTask(task: FsTask): StatRows | SearchJobResult | NgramSegment | CountChecks | undefined {
  switch (task.kind) {
    case 'start':
      if (task.presize === true) presizeDescriptorTable();
      // A search thread runs its search code once before any search reaches it (search-warm-up.ts);
      // a start task for a thread already running (the pool's warm() during a search) does nothing.
      if (!warmed && background?.background !== true) {
        warmed = true;
        jobs.warmUp();
      }
      return undefined;
    case 'check':
      return checkCounts(task.job);
    case 'stat':
      return jobs.statEntries(task.files);
    case 'search':
      return jobs.searchFiles(task.job);
    case 'ngrams':
      return (extractNgrams ??= createNgramExtractor(background?.hold))(task.files, task.racyMs);
  }
}
