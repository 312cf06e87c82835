import { createFsJobs } from './fs-worker-jobs';
import type { FsJobs } from './fs-worker-jobs';
import type { AnchoredFiles, StatRows } from './search-types';

/** The workers' jobs run right here: for small batches (a round trip costs more) and for tests. */
export const createInProcessJobs = (options: { chunkSize?: number } = {}): FsJobs => createFsJobs(options);

const inProcess = createInProcessJobs();

/** lstat of a few files right here. */
export const statEntriesNow = (files: AnchoredFiles): StatRows => inProcess.statEntries(files);

export type { StatRows };

/** Kind codes of StatRows. */
export const statKinds = ['file', 'directory', 'symlink', 'special'] as const;
