import { isAbsolute, posix, relative, sep } from 'node:path';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ResolvedPath, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { ToolContext } from '../define-tool';
import { gitFailed } from './git-output';
import { gitDirArgument, gitRunner } from './git-runner';
import type { GitRun } from './git-runner';

/*
 * What git may still do that these checks do not reach (for SECURITY.md):
 * - It reads config files the repository's config includes (include.path, includeIf) and the files
 *   core.excludesFile / core.attributesFile name, wherever they are. Their values can change which
 *   paths are listed or how line endings are treated; their content is never returned, and every
 *   setting that would run a program is overridden on the command line.
 * - Inside the repository folder it reads by path: a process that can write in .git and swaps, say,
 *   .git/objects for a link while git runs can make it read another object store. The folder itself
 *   is held by descriptor on Linux (/proc/self/fd/3); elsewhere it is checked, then named by path.
 * - Filter drivers are switched off by name, as listed just before: one added to the config in between
 *   (again by a writer inside .git) would run.
 * - GIT_CONFIG_NOSYSTEM: the system config is not read, so Git for Windows' system-wide
 *   core.autocrlf does not apply (set it in the global config).
 * - Submodules are not entered (--ignore-submodules=all): their changes are not shown.
 */

export interface Repository {
  /** For reading: no program the repository's config names runs (hooks, fsmonitor, filters, diff drivers). */
  readonly git: GitRun;
  /** Filter drivers the repository or the user configured (switched off in `git`; a file using one is not staged). */
  readonly filterDrivers: ReadonlySet<string>;
  /** The repository folder, workspace-relative ('.git', or where a `gitdir:` file points inside the workspace). */
  readonly gitDir: string;
}

const notARepo = () =>
  err<never>(
    'not_a_git_repo',
    'The workspace is not a git repository: git tools work on a repository whose .git folder is at the workspace root. ' +
      'Ask the user whether to create one (run_command "git init"), or to open the repository root as the workspace.',
  );

const outside = (what: string) =>
  err<never>(
    'permission_denied',
    `The repository's ${what} lies outside the workspace; git tools only work on a repository kept entirely inside it. ` +
      'The user can run git there themselves.',
  );

/** Small files git keeps its pointers in (.git file, commondir, alternates): never large. */
const POINTER_FILE_BYTES = 64 * 1024;

async function readPointerFile(sandbox: WorkspaceSandbox, path: ResolvedPath): Promise<Result<string>> {
  const read = await sandbox.readWholeFile(path, POINTER_FILE_BYTES, () =>
    err('file_too_large', `'${path.display}' is too large for a git pointer file.`),
  );
  return read.ok ? ok(read.value.bytes.toString('utf8')) : read;
}

/**
 * A path a git pointer file names (absolute, or relative to the folder `base` it sits in) as a
 * workspace-relative path, or undefined when it leads out of the workspace.
 */
function insideWorkspace(sandbox: WorkspaceSandbox, base: string, target: string): string | undefined {
  let rel: string;
  if (isAbsolute(target)) {
    rel = relative(sandbox.workspaceRoot, target).split(sep).join('/');
    if (isAbsolute(rel)) return undefined;
  } else rel = posix.join(base, target.replaceAll('\\', '/'));
  rel = posix.normalize(rel);
  if (rel === '..' || rel.startsWith('../')) return undefined;
  return rel === '.' ? '' : rel.replace(/\/$/, '');
}

/** Resolves a folder of the repository through the sandbox: it must be one, inside the workspace. */
async function folderInside(sandbox: WorkspaceSandbox, rel: string, what: string): Promise<Result<ResolvedPath>> {
  const found = await sandbox.resolve(rel, 'read');
  if (!found.ok) return found.error.code === 'file_not_found' ? notARepo() : outsideOr(found, what);
  if (found.value.facts?.kind !== 'directory') return notARepo();
  return found;
}

function outsideOr<T>(failed: Result<T> & { ok: false }, what: string): Result<never> {
  return failed.error.code === 'symlink_escape' || failed.error.code === 'permission_denied' ? outside(what) : failed;
}

/**
 * The repository folder of the workspace, checked through the sandbox before git is started: `.git`
 * is a real folder inside the workspace, or a `gitdir:` file pointing to one inside. git is never
 * asked to discover a repository itself (it would walk up out of the workspace to find one).
 */
export async function locateGitDir(sandbox: WorkspaceSandbox): Promise<Result<ResolvedPath>> {
  const dotGit = await sandbox.resolve('.git', 'read');
  if (!dotGit.ok) return dotGit.error.code === 'file_not_found' ? notARepo() : outsideOr(dotGit, '.git');
  const kind = dotGit.value.facts?.kind;
  if (kind === 'directory') return dotGit;
  if (kind !== 'file') return notARepo();
  const text = await readPointerFile(sandbox, dotGit.value);
  if (!text.ok) return text;
  const target = /^gitdir: *(.+?)\s*$/m.exec(text.value)?.[1];
  if (target === undefined) return notARepo();
  const rel = insideWorkspace(sandbox, '', target);
  if (rel === undefined || rel === '') return outside(`folder (${target})`);
  return folderInside(sandbox, rel, 'folder');
}

/**
 * What git would read beyond the repository folder: a linked worktree's common folder, objects
 * borrowed through alternates, and the files it reads first (a symlink in their place could lead
 * anywhere). Each is checked through the sandbox; one that leads outside refuses the repository.
 */
async function checkRepositoryFiles(sandbox: WorkspaceSandbox, gitDir: string): Promise<Result<void>> {
  let common = gitDir;
  const commondir = await sandbox.resolve(`${gitDir}/commondir`, 'read');
  if (!commondir.ok) return outsideOr(commondir, 'commondir');
  if (commondir.value.facts !== undefined) {
    const text = await readPointerFile(sandbox, commondir.value);
    if (!text.ok) return text;
    const rel = insideWorkspace(sandbox, gitDir, text.value.trim());
    if (rel === undefined) return outside('common folder (commondir)');
    const folder = await folderInside(sandbox, rel, 'common folder (commondir)');
    if (!folder.ok) return folder;
    common = rel;
  }
  const entries = [
    `${gitDir}/HEAD`,
    `${gitDir}/index`,
    `${common}/config`,
    `${common}/objects`,
    `${common}/refs`,
    `${common}/packed-refs`,
    `${common}/info`,
  ];
  for (const entry of entries) {
    const found = await sandbox.resolve(entry, 'read');
    if (!found.ok) {
      if (found.error.code === 'file_not_found') continue;
      return outsideOr(found, entry.slice(entry.lastIndexOf('/') + 1));
    }
    const facts = found.value.facts;
    if (facts?.kind === 'file' && facts.nlink > 1 && sandbox.anchorOf(false)?.hardLinks !== 'allow') {
      return err(
        'hard_link_refused',
        `The repository's ${entry} has ${facts.nlink} hard links; git tools do not read it.`,
      );
    }
  }
  const alternates = await sandbox.resolve(`${common}/objects/info/alternates`, 'read');
  if (!alternates.ok) return outsideOr(alternates, 'objects/info/alternates');
  if (alternates.value.facts !== undefined) {
    const text = await readPointerFile(sandbox, alternates.value);
    if (!text.ok) return text;
    for (const line of text.value.split('\n').map((entry) => entry.trim())) {
      if (line === '' || line.startsWith('#')) continue;
      const rel = insideWorkspace(sandbox, `${common}/objects`, line);
      if (rel === undefined) return outside('object store (objects/info/alternates)');
      const folder = await folderInside(sandbox, rel, 'object store (objects/info/alternates)');
      if (!folder.ok) return folder;
    }
  }
  return ok(undefined);
}

/**
 * `-c` settings that switch off every filter driver configured in any scope git still reads (global,
 * local, worktree, includes). A driver's clean/smudge/process program runs whenever git reads a file
 * .gitattributes maps to it, and `git status` / `git diff` read files: without this a repository's
 * config could make a read tool run any program. An empty value means "no filter"; required=false
 * keeps a required driver from turning that into an error.
 */
async function filterDriversOff(git: GitRun): Promise<Result<{ settings: string[]; drivers: Set<string> }>> {
  const listed = await git(['config', '-z', '--name-only', '--get-regexp', '^filter\\..*\\.(clean|smudge|process)$']);
  if (!listed.ok) return listed;
  const drivers = new Set<string>();
  // Exit 1: no key matches.
  if (listed.value.exitCode === 1) return ok({ settings: [], drivers });
  if (listed.value.exitCode !== 0) return gitFailed('config', listed.value);
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
  return ok({ settings, drivers });
}

/**
 * Opens the workspace's repository for one tool call: checked through the sandbox, its folder held
 * open for the length of `use` (git children inherit it), every git command pinned to it and to the
 * workspace as work tree. The hold is released when `use` settles.
 */
export async function withRepository<T>(
  ctx: ToolContext,
  use: (repo: Repository) => Promise<Result<T>>,
): Promise<Result<T>> {
  const { sandbox } = ctx.env;
  const gitDir = await locateGitDir(sandbox);
  if (!gitDir.ok) return gitDir;
  const checked = await checkRepositoryFiles(sandbox, gitDir.value.realRel);
  if (!checked.ok) return checked;
  const held = sandbox.holdFolder(gitDir.value);
  if (!held.ok) return held;
  try {
    const plain = gitRunner(ctx, gitDirArgument(held.value));
    const probe = await plain(['rev-parse', '--git-dir']);
    if (!probe.ok) return probe;
    if (probe.value.exitCode !== 0) {
      return /not a git repository/i.test(probe.value.stderr) ? notARepo() : gitFailed('rev-parse', probe.value);
    }
    const filters = await filterDriversOff(plain);
    if (!filters.ok) return filters;
    const git = gitRunner(ctx, gitDirArgument(held.value), filters.value.settings);
    return await use({ git, filterDrivers: filters.value.drivers, gitDir: gitDir.value.realRel });
  } finally {
    held.value.release();
  }
}
