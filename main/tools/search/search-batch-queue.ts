import type { AnchoredFiles } from '../../platform/disk/anchored-batch';

/** A batch of the walk's files, in walk order from `offset`. */
export interface FileBatch {
  readonly offset: number;
  readonly files: AnchoredFiles;
}

/**
 * The batches a search engine is given while the walk goes on: at most `maxInFlight` jobs run, the
 * rest wait here, and each job that finishes starts the next. Both engines (search-js-engine.ts,
 * search-ripgrep-engine.ts) queue their batches this way; what a job does is theirs.
 */
export function createBatchQueue<T>(maxInFlight: number, start: (batch: FileBatch) => Promise<T>) {
  const waiting: FileBatch[] = [];
  const jobs: Promise<T>[] = [];
  let inFlight = 0;
  const launch = () => {
    while (inFlight < maxInFlight && waiting.length > 0) {
      const batch = waiting.shift()!;
      inFlight += 1;
      const job = start(batch).finally(() => {
        inFlight -= 1;
        launch();
      });
      // Awaited in finish(); a rejection before then must not be reported as unhandled.
      job.catch(() => undefined);
      jobs.push(job);
    }
  };
  return {
    add: (offset: number, files: AnchoredFiles): void => {
      waiting.push({ offset, files });
      launch();
    },
    /** Every job's result in the order the batches were added; rejects when a job did (an abort). */
    finish: async (): Promise<T[]> => {
      const done: T[] = [];
      // Jobs launch more jobs as they finish: wait until none is left.
      while (done.length < jobs.length) done.push(...(await Promise.all(jobs.slice(done.length))));
      return done;
    },
  };
}
