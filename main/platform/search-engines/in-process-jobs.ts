import { createFsJobs } from './fs-worker-jobs';
import type { FsJobs } from './fs-worker-jobs';
import type { AnchoredFiles } from '../disk/anchored-batch';
import type { SearchJob, SearchJobResult, StatRows } from './search-types';

/** The workers' jobs run right here: for small batches (a round trip costs more) and for tests. */
export const createInProcessJobs = (options: { chunkSize?: number; keptBytes?: number } = {}): FsJobs =>
  createFsJobs(options);

const inProcess = createInProcessJobs();

/** lstat of a few files right here. */
export const statEntriesNow = (files: AnchoredFiles): StatRows => inProcess.statEntries(files);

/**
 * A search of a few files right here: for the ripgrep engine's descriptions of literal queries
 * (linear-time matchers; a regex could backtrack for ever, so regexes go to the workers).
 */
export const searchFilesNow = (job: SearchJob): SearchJobResult => inProcess.searchFiles(job);

export type { StatRows };

/** Kind codes of StatRows. */
export const statKinds = ['file', 'directory', 'symlink', 'special'] as const;
