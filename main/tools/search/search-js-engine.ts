import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import type { AnchoredFiles } from '../../platform/disk/anchored-batch';
import type { SearchJobResult, SearchSpec } from '../../platform/search-engines/search-types';
import { createBatchQueue } from './search-batch-queue';
import { searchFilesNow } from '../../platform/search-engines/in-process-jobs';
import { closeOpened } from '../../platform/disk/walk-opened-files';

/** A batch of the walk's files (in walk order from `offset`) and what searching it found. */
export interface BatchResult {
  readonly offset: number;
  readonly result: SearchJobResult;
}

/** How search_in_code searches the files its walk lists, batch by batch, while the walk goes on. */
export interface SearchEngine {
  readonly name: 'ripgrep' | 'js';
  /** Files per batch. */
  readonly batchFiles: number;
  add(offset: number, files: AnchoredFiles): void;
  /** Every batch's result, once the walk has added the last one. Rejects when the call is aborted. */
  finish(): Promise<BatchResult[]>;
}

/**
 * Which files still need their matches described: true for a batch once the batches before it (in
 * walk order) have all finished with at least `maxResults` described matches between them.
 */
function createDetailBudget(maxResults: number) {
  const finished = new Map<number, { length: number; hits: number }>();
  let prefixEnd = 0; // files [0, prefixEnd) are all finished
  let prefixHits = 0;
  return {
    record(offset: number, length: number, result: SearchJobResult) {
      finished.set(offset, { length, hits: result.files.reduce((sum, file) => sum + file.hits.length, 0) });
      for (let next = finished.get(prefixEnd); next !== undefined; next = finished.get(prefixEnd)) {
        finished.delete(prefixEnd);
        prefixHits += next.hits;
        prefixEnd += next.length;
      }
    },
    satisfiedBefore: (offset: number) => offset >= prefixEnd && prefixHits >= maxResults,
  };
}

/**
 * The JavaScript engine: the file workers (fs-worker-pool.ts) search each batch. A few jobs in
 * flight, the rest waiting here: a job is sent with a detail budget of zero once the jobs before it
 * already hold max_results matches, so a query matching 100k lines does not describe (and copy
 * between threads) 100k lines to show 100.
 */
export function createJsEngine(
  workers: FsWorkerPool,
  spec: SearchSpec,
  maxResults: number,
  signal: AbortSignal,
  /**
   * The jobs run in this thread, one after the other: for a literal (linear-time matchers; a regex
   * could backtrack for ever) over a few megabytes, where starting a thread and copying the
   * answers between threads costs more than the search.
   */
  here = false,
): SearchEngine {
  const detailed = createDetailBudget(maxResults);
  const queue = createBatchQueue(workers.size * 2, async ({ offset, files }): Promise<BatchResult> => {
    const maxDetails = detailed.satisfiedBefore(offset) ? 0 : maxResults;
    const job = { spec, files, maxDetails };
    const runHere = here && spec.mode !== 'utf8' && spec.mode !== 'latin1';
    // The walk's descriptors are read in this thread only: a worker could outlive the call that closes them.
    if (!runHere && files.opened !== undefined) closeOpened(files.opened);
    const result = runHere ? searchFilesNow(job) : await workers.searchFiles(job, signal);
    detailed.record(offset, files.names.length, result);
    return { offset, result };
  });
  return { name: 'js', batchFiles: 256, ...queue };
}
