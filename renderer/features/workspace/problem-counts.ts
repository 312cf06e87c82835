import type { FileProblemCounts } from '../../../shared/ipc/problems';

export interface ProblemCount {
  readonly errors: number;
  readonly warnings: number;
}

/** Workspace-relative path → its problems; files without any are absent. */
export type Problems = Readonly<Record<string, ProblemCount>>;

export const noProblems: Problems = {};

/** The counts after a problems.changed batch: a file at zero leaves the map. */
export function mergeProblems(problems: Problems, files: readonly FileProblemCounts[]): Problems {
  const next: Record<string, ProblemCount> = { ...problems };
  for (const { path, errors, warnings } of files) {
    if (errors === 0 && warnings === 0) delete next[path];
    else next[path] = { errors, warnings };
  }
  return next;
}

/** The header's figure: every file's problems added up. */
export function totalProblems(problems: Problems): ProblemCount {
  let errors = 0;
  let warnings = 0;
  for (const count of Object.values(problems)) {
    errors += count.errors;
    warnings += count.warnings;
  }
  return { errors, warnings };
}
