import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { runProcess } from '../sandbox/process-runner';
import type { ProcessOutcome } from '../sandbox/process-runner';
import type { ToolContext } from './define-tool';

/** Enough for status and numstat of a big repository; diff text for the model is capped separately. */
const GIT_OUTPUT_BYTES = 8 * 1024 * 1024;
const GIT_TIMEOUT_MS = 20_000;

/**
 * Settings that make git safe and parseable for a tool: no fsmonitor hook (a repository's config
 * could name any program as one and `git status` would run it), no pager, paths printed verbatim.
 * Filter drivers are switched off per repository (filterDriversOff); git_diff passes --no-ext-diff and
 * --no-textconv so no diff.<driver>.command / textconv program runs either.
 */
const safeConfig = ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=false', '-c', 'color.ui=false'];

export interface GitRun {
  (args: readonly string[], options?: { readonly stdin?: string }): Promise<Result<ProcessOutcome>>;
}

/** Runs git in the workspace root (the git CLI, argv only, never a shell), secrets removed from its environment. */
export function gitRunner(ctx: ToolContext): GitRun {
  return (args, options) =>
    runProcess({
      file: 'git',
      args: [...safeConfig, ...args],
      shell: false,
      cwd: ctx.env.workspaceRoot,
      timeoutMs: GIT_TIMEOUT_MS,
      signal: ctx.signal,
      maxOutputBytes: GIT_OUTPUT_BYTES,
      environment: {
        pass: ctx.env.passEnvironment(),
        drop: (name) => name.toUpperCase().startsWith('GIT_'),
        set: {
          GIT_TERMINAL_PROMPT: '0',
          GIT_PAGER: 'cat',
          // Reading commands must not take the index lock from the user's own git.
          GIT_OPTIONAL_LOCKS: '0',
          LC_ALL: 'C',
        },
      },
      ...(options?.stdin === undefined ? {} : { stdin: options.stdin }),
    });
}

export interface Repository {
  /** The workspace root's path inside the repository ('' or 'sub/dir/'), as git prints it. */
  readonly prefix: string;
  /** For reading without approval: no program the repository's config names runs (filter drivers off). */
  readonly git: GitRun;
  /**
   * For a command the user approved (git add, git commit): the repository's filter drivers run, as its
   * hooks do, so e.g. git-lfs still stages pointer files instead of the large content.
   */
  readonly gitApproved: GitRun;
}

/**
 * `-c` settings that switch off every filter driver configured in any scope (system, global, local,
 * worktree, includes). A driver's clean/smudge/process program runs whenever git reads a file the
 * .gitattributes maps to it, and `git status` / `git diff` read files: without this a repository's
 * config could make a read tool run any program. An empty value means "no filter"; required=false
 * keeps a required driver from turning that into an error.
 */
async function filterDriversOff(git: GitRun): Promise<Result<string[]>> {
  const listed = await git(['config', '-z', '--name-only', '--get-regexp', '^filter\\..*\\.(clean|smudge|process)$']);
  if (!listed.ok) return listed;
  // Exit 1: no key matches.
  if (listed.value.exitCode === 1) return ok([]);
  if (listed.value.exitCode !== 0) return gitFailed('config', listed.value);
  const drivers = new Set<string>();
  for (const key of listed.value.stdout.split('\0')) {
    // "filter.<name>.<variable>"; <name> may itself hold dots.
    if (key !== '') drivers.add(key.slice('filter.'.length, key.lastIndexOf('.')));
  }
  const settings: string[] = [];
  for (const driver of drivers) {
    // `-c key=value` splits at the first '=': such a name cannot be overridden, so refuse to read at all.
    if (driver.includes('=')) {
      return err(
        'git_failed',
        `The repository configures a filter driver named '${driver}' that cannot be switched off safely.`,
      );
    }
    for (const variable of ['clean', 'smudge', 'process']) settings.push('-c', `filter.${driver}.${variable}=`);
    settings.push('-c', `filter.${driver}.required=false`);
  }
  return ok(settings);
}

/** The repository holding the workspace, or not_a_git_repo. */
export async function openRepository(ctx: ToolContext): Promise<Result<Repository>> {
  const gitApproved = gitRunner(ctx);
  const probe = await gitApproved(['rev-parse', '--show-prefix']);
  if (!probe.ok) return probe;
  if (probe.value.exitCode !== 0) {
    if (/not a git repository/i.test(probe.value.stderr)) {
      return err(
        'not_a_git_repo',
        'The workspace is not inside a git repository. Ask the user whether to create one (run_command "git init").',
      );
    }
    return gitFailed('rev-parse', probe.value);
  }
  const filtersOff = await filterDriversOff(gitApproved);
  if (!filtersOff.ok) return filtersOff;
  const git: GitRun = (args, options) => gitApproved([...filtersOff.value, ...args], options);
  return ok({ prefix: probe.value.stdout.trim(), git, gitApproved });
}

/**
 * Every path in the whole index that differs from HEAD (repository-relative, both sides of a rename):
 * exactly what `git commit` without paths takes, wherever it lies.
 */
export async function readStagedPaths(repo: Repository): Promise<Result<string[]>> {
  const run = await repo.git(['diff', '--cached', '--name-only', '--no-renames', '--no-ext-diff', '-z']);
  if (!run.ok) return run;
  if (run.value.exitCode !== 0) return gitFailed('diff', run.value);
  return ok(run.value.stdout.split('\0').filter((path) => path !== ''));
}

export function gitFailed<T>(what: string, outcome: ProcessOutcome): Result<T> {
  const message = (outcome.stderr.trim() || outcome.stdout.trim()).slice(0, 2000);
  return err('git_failed', `git ${what} failed (exit ${outcome.exitCode ?? outcome.signal}): ${message}`, {
    exit_code: outcome.exitCode,
  });
}

/** A repository-relative path as the workspace names it, or undefined when it lies outside the workspace. */
export function toWorkspacePath(repo: Repository, repoPath: string): string | undefined {
  if (repo.prefix === '') return repoPath;
  return repoPath.startsWith(repo.prefix) ? repoPath.slice(repo.prefix.length) : undefined;
}

/** Workspace-relative path as a pathspec git reads literally (no glob magic in file names). */
export const literalPathspec = (path: string) => `:(literal)${path === '' ? '.' : path}`;

export type ChangeKind = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'type_changed' | 'unmerged';

const kindOf: Record<string, ChangeKind | undefined> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type_changed',
  U: 'unmerged',
};

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
  /** Workspace-relative entries; those outside the workspace or concealed are left out. */
  readonly entries: StatusEntry[];
}

/** `git status --porcelain=v2 -z` limited to the workspace, parsed. */
export async function readStatus(repo: Repository, ctx: ToolContext, pathspecs: readonly string[] = ['.']) {
  const run = await repo.git([
    'status',
    '--porcelain=v2',
    '--branch',
    '-z',
    '--untracked-files=all',
    // Checking a submodule's work tree runs `git status` inside it under the submodule's own config,
    // whose filter drivers filterDriversOff never listed; its new commits still show.
    '--ignore-submodules=dirty',
    '--',
    ...pathspecs,
  ]);
  if (!run.ok) return run;
  if (run.value.exitCode !== 0) return gitFailed<StatusReport>('status', run.value);
  const report: { -readonly [K in keyof StatusReport]: StatusReport[K] } = {
    branch: undefined,
    upstream: undefined,
    ahead: 0,
    behind: 0,
    entries: [],
  };
  const fields = run.value.stdout.split('\0');
  const visible = (path: string | undefined): path is string =>
    path !== undefined && !ctx.env.isConcealed(path) && !ctx.env.sandbox.denyList.deniesRead(path);
  for (let index = 0; index < fields.length; index += 1) {
    const line = fields[index] as string;
    if (line.startsWith('# branch.head ')) report.branch = line.slice(14);
    else if (line.startsWith('# branch.upstream ')) report.upstream = line.slice(18);
    else if (line.startsWith('# branch.ab ')) {
      const [ahead, behind] = line.slice(12).split(' ');
      report.ahead = Math.abs(Number(ahead));
      report.behind = Math.abs(Number(behind));
    } else if (line.startsWith('? ')) {
      const path = toWorkspacePath(repo, line.slice(2));
      if (visible(path)) report.entries.push({ path, untracked: true });
    } else if (line.startsWith('1 ') || line.startsWith('2 ') || line.startsWith('u ')) {
      const parts = line.split(' ');
      const xy = parts[1] ?? '..';
      const pathField = line.startsWith('1 ') ? 8 : line.startsWith('2 ') ? 9 : 10;
      const path = toWorkspacePath(repo, parts.slice(pathField).join(' '));
      const from = line.startsWith('2 ') ? fields[(index += 1)] : undefined;
      if (!visible(path)) continue;
      const fromPath = from === undefined ? undefined : toWorkspacePath(repo, from);
      if (line.startsWith('u ')) report.entries.push({ path, conflicted: true });
      else {
        const staged = kindOf[xy[0] ?? '.'];
        const unstaged = kindOf[xy[1] ?? '.'];
        report.entries.push({
          path,
          ...(fromPath === undefined ? {} : { from: fromPath }),
          ...(staged === undefined ? {} : { staged }),
          ...(unstaged === undefined ? {} : { unstaged }),
        });
      }
    }
  }
  return ok(report as StatusReport);
}
