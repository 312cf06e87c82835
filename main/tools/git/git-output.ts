import { err } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ProcessOutcome } from '../../platform/processes/process-runner';

export function gitFailed<T>(what: string, outcome: ProcessOutcome): Result<T> {
  const message = (outcome.stderr.trim() || outcome.stdout.trim()).slice(0, 2000);
  return err('git_failed', `git ${what} failed (exit ${outcome.exitCode ?? outcome.signal}): ${message}`, {
    exit_code: outcome.exitCode,
  });
}

/** Workspace-relative path as a pathspec git reads literally (no glob magic in file names). */
export const literalPathspec = (path: string) => `:(literal)${path === '' ? '.' : path}`;

export type ChangeKind = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'type_changed' | 'unmerged';

export const changeKindOf: Record<string, ChangeKind | undefined> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type_changed',
  U: 'unmerged',
};
