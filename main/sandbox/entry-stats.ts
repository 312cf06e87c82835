import * as fs from 'node:fs';
import { fsWorkerJobs } from './fs-worker-jobs';
import type { StatRow } from './fs-worker-jobs';

const inProcess = fsWorkerJobs(fs);

/** lstat of a few paths right here (a worker round trip costs more than a small batch). */
export const statEntriesNow = (paths: readonly string[]): StatRow[] => inProcess.statEntries(paths);

export type { StatRow };

/** Kind codes of StatRow. */
export const statKinds = ['file', 'directory', 'symlink', 'special'] as const;
