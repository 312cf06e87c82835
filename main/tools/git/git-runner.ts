import { dirname } from 'node:path';
import type { Result } from '../../../shared/result';
import type { ChildEnvironmentOptions } from '../../platform/processes/child-environment';
import { runProcess } from '../../platform/processes/process-runner';
import type { ProcessOutcome } from '../../platform/processes/process-runner';
import type { ToolContext } from '../define-tool';

/** Enough for status and numstat of a big repository; diff text for the model is capped separately. */
export const GIT_OUTPUT_BYTES = 8 * 1024 * 1024;
const GIT_TIMEOUT_MS = 20_000;

/** Where no hook can be: a path that is not a folder, so every `<hooksPath>/<hook>` lookup fails. */
const noHooks = process.platform === 'win32' ? 'NUL' : '/dev/null';

/**
 * `-c` settings on every git command line, which win over every config file a repository brings:
 * - core.fsmonitor: a repository could name any program as its monitor and `git status` would run it.
 * - core.hooksPath: no hook of the repository (or of the user's global config) runs, commit hooks included.
 * - core.pager, diff.external: no pager, no external diff program (diff also gets --no-ext-diff).
 * - core.worktree: the work tree is the workspace, whatever the repository's config says
 *   (--work-tree says it too; this keeps a config value from ever being consulted).
 * - commit.gpgSign, log.showSignature: no gpg.program runs.
 * - gc.auto, maintenance.auto: no background gc left running (or running its own hooks).
 * - protocol.allow=never: no transport at all; nothing these tools do needs the network.
 * Filter drivers need one setting per driver name: see filterDriversOff in git-repository.ts.
 */
export function hardenedConfig(workTree: string): string[] {
  return [
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', noHooks],
    ['core.pager', 'cat'],
    ['diff.external', ''],
    ['core.worktree', workTree],
    ['core.quotepath', 'false'],
    ['color.ui', 'false'],
    ['commit.gpgSign', 'false'],
    ['log.showSignature', 'false'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['protocol.allow', 'never'],
    ['status.submoduleSummary', 'false'],
  ].flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

/**
 * git's environment: the same allow-list as every child, with every GIT_* variable of the parent
 * removed (GIT_DIR, GIT_WORK_TREE, GIT_CONFIG_*, GIT_EXTERNAL_DIFF... would redirect or arm it,
 * even one the user named), then git's own switches.
 */
export function gitEnvironment(pass: readonly string[], indexFile?: string): ChildEnvironmentOptions {
  return {
    pass,
    drop: (name) => name.toUpperCase().startsWith('GIT_'),
    set: {
      // No /etc/gitconfig or system attributes: what a tool sees depends on the repository and the user only.
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      // Reading commands must not take the index lock from the user's own git.
      GIT_OPTIONAL_LOCKS: '0',
      LC_ALL: 'C',
      ...(indexFile === undefined ? {} : { GIT_INDEX_FILE: indexFile }),
    },
  };
}

export interface GitRunOptions {
  readonly stdin?: string | Uint8Array;
  /** Keep stdout as bytes (blob contents). */
  readonly stdoutBytes?: boolean;
  readonly maxOutputBytes?: number;
  /** A private index (GIT_INDEX_FILE) for building a commit beside the user's own index. */
  readonly indexFile?: string;
}

export type GitRun = (args: readonly string[], options?: GitRunOptions) => Promise<Result<ProcessOutcome>>;

/** How a git child names the repository's folder: `/proc/self/fd/3` when it inherits the held descriptor. */
export interface GitDirArgument {
  readonly path: string;
  readonly inheritFd: number | undefined;
}

export function gitDirArgument(held: { readonly cwd: string; readonly fd: number | undefined }): GitDirArgument {
  // The child gets the descriptor as its fd 3: git then reads the very folder that was checked, even
  // if `.git` is swapped for a link to another repository meanwhile (git keeps the path as given).
  // Confined, that folder is mounted from the descriptor at its real path instead (confined-launch.ts).
  return held.fd === undefined
    ? { path: held.cwd, inheritFd: undefined }
    : { path: '/proc/self/fd/3', inheritFd: held.fd };
}

/**
 * Runs git pinned to one repository folder and the workspace as its work tree: argv only (never a
 * shell), the hardened settings first, extra `-c` settings (filter drivers off) after them. It runs
 * confined (process-rules.ts, 'git'): the work tree read-only, only `.git` writable (its hooks and
 * config not), plus the private folder of a commit's own index.
 */
export function gitRunner(ctx: ToolContext, gitDir: GitDirArgument, extraConfig: readonly string[] = []): GitRun {
  const workTree = ctx.env.workspaceRoot;
  const rules = ctx.env.confinementFor('git');
  return (args, options = {}) =>
    runProcess({
      file: 'git',
      args: [
        `--git-dir=${gitDir.path}`,
        `--work-tree=${workTree}`,
        ...hardenedConfig(workTree),
        ...extraConfig,
        ...args,
      ],
      shell: false,
      cwd: workTree,
      timeoutMs: GIT_TIMEOUT_MS,
      signal: ctx.signal,
      maxOutputBytes: options.maxOutputBytes ?? GIT_OUTPUT_BYTES,
      environment: gitEnvironment(ctx.env.passEnvironment(), options.indexFile),
      ...(gitDir.inheritFd === undefined ? {} : { inheritFds: [gitDir.inheritFd] }),
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      ...(options.stdoutBytes === true ? { stdoutBytes: true } : {}),
      confinement:
        options.indexFile === undefined
          ? rules
          : { ...rules, writable: [...rules.writable, dirname(options.indexFile)] },
    });
}
