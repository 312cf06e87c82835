import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ToolContext } from '../define-tool';
import { confirmGitPath } from './git-confirm';
import { changeKindOf, gitFailed } from './git-output';
import type { ChangeKind } from './git-output';
import type { Repository } from './git-repository';

export interface StatusEntry {
  readonly path: string;
  readonly from?: string;
  readonly staged?: ChangeKind;
  readonly unstaged?: ChangeKind;
  readonly untracked?: true;
  readonly conflicted?: true;
}

export interface StatusReport {
  readonly branch: string | undefined;
  readonly upstream: string | undefined;
  readonly ahead: number;
  readonly behind: number;
  /** Workspace-relative entries, each confirmed through the sandbox (confirmGitPath); the rest are left out. */
  readonly entries: StatusEntry[];
}

/** `git status --porcelain=v2 -z`, parsed, every path confirmed through the sandbox. */
export async function readStatus(
  repo: Repository,
  ctx: ToolContext,
  pathspecs: readonly string[] = ['.'],
): Promise<Result<StatusReport>> {
  const run = await repo.git([
    'status',
    '--porcelain=v2',
    '--branch',
    '-z',
    '--untracked-files=all',
    // A submodule is another repository (its .git may point anywhere): git is not sent into it.
    '--ignore-submodules=all',
    '--',
    ...pathspecs,
  ]);
  if (!run.ok) return run;
  if (run.value.exitCode !== 0) return gitFailed('status', run.value);
  const report: { -readonly [K in keyof StatusReport]: StatusReport[K] } = {
    branch: undefined,
    upstream: undefined,
    ahead: 0,
    behind: 0,
    entries: [],
  };
  const { sandbox } = ctx.env;
  const fields = run.value.stdout.split('\0');
  for (let index = 0; index < fields.length; index += 1) {
    const line = fields[index] as string;
    if (line.startsWith('# branch.head ')) report.branch = line.slice(14);
    else if (line.startsWith('# branch.upstream ')) report.upstream = line.slice(18);
    else if (line.startsWith('# branch.ab ')) {
      const [ahead, behind] = line.slice(12).split(' ');
      report.ahead = Math.abs(Number(ahead));
      report.behind = Math.abs(Number(behind));
    } else if (line.startsWith('? ')) {
      const path = line.slice(2);
      // Untracked names come from reading folders: one swapped for a link lists outside names.
      if ((await confirmGitPath(sandbox, path, true)) !== undefined) {
        report.entries.push({ path, untracked: true });
      }
    } else if (line.startsWith('1 ') || line.startsWith('2 ') || line.startsWith('u ')) {
      const parts = line.split(' ');
      const xy = parts[1] ?? '..';
      const pathField = line.startsWith('1 ') ? 8 : line.startsWith('2 ') ? 9 : 10;
      const path = parts.slice(pathField).join(' ');
      const from = line.startsWith('2 ') ? fields[(index += 1)] : undefined;
      if ((await confirmGitPath(sandbox, path, false)) === undefined) continue;
      if (from !== undefined && (await confirmGitPath(sandbox, from, false)) === undefined) continue;
      if (line.startsWith('u ')) report.entries.push({ path, conflicted: true });
      else {
        const staged = changeKindOf[xy[0] ?? '.'];
        const unstaged = changeKindOf[xy[1] ?? '.'];
        report.entries.push({
          path,
          ...(from === undefined ? {} : { from }),
          ...(staged === undefined ? {} : { staged }),
          ...(unstaged === undefined ? {} : { unstaged }),
        });
      }
    }
  }
  return ok(report as StatusReport);
}

/**
 * Every path in the whole index that differs from HEAD (both sides of a rename): exactly what a
 * commit of the index takes, wherever it lies.
 */
export async function readStagedPaths(repo: Repository): Promise<Result<string[]>> {
  const run = await repo.git(['diff', '--cached', '--name-only', '--no-renames', '--no-ext-diff', '-z']);
  if (!run.ok) return run;
  if (run.value.exitCode !== 0) return gitFailed('diff', run.value);
  return ok(run.value.stdout.split('\0').filter((path) => path !== ''));
}
