import { join } from 'node:path';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { withScratchDir } from '../../platform/storage/scratch-dir';
import type { ToolContext } from '../define-tool';
import { gitFailed } from './git-output';
import type { Repository } from './git-repository';

/** A file the commit takes; its content is larger than any sane source file, smaller than memory. */
const COMMIT_FILE_BYTES = 50 * 1024 * 1024;

/** One index entry to write: content already read through the sandbox, or a deletion. */
type IndexChange =
  | { readonly path: string; readonly mode: '100644' | '100755' | '120000'; readonly content: Buffer }
  | { readonly path: string; readonly mode: '0' };

/**
 * Reads what the commit will take, through the sandbox only: a regular file's bytes, a symlink's
 * target text (git stores links as links), or "deleted". Anything the sandbox refuses (a path that
 * leads outside, a hard-linked file, a folder that is another repository) refuses the commit: git
 * itself never reads these work-tree files, so a swap while it runs cannot stage outside content.
 */
async function readChanges(ctx: ToolContext, files: readonly string[]): Promise<Result<IndexChange[]>> {
  const { sandbox } = ctx.env;
  const changes: IndexChange[] = [];
  for (const path of files) {
    const found = await sandbox.resolve(path, 'read', { followFinal: false });
    if (!found.ok) {
      if (found.error.code === 'file_not_found' || found.error.code === 'not_a_directory') {
        changes.push({ path, mode: '0' });
        continue;
      }
      return found;
    }
    const { facts, inPersona } = found.value;
    if (inPersona) return err('permission_denied', `'${path}' is a persona file name; commit it yourself.`);
    if (facts === undefined) changes.push({ path, mode: '0' });
    else if (facts.kind === 'symlink') {
      const target = sandbox.readLink(found.value);
      if (!target.ok) return target;
      changes.push({ path, mode: '120000', content: Buffer.from(target.value) });
    } else if (facts.kind === 'file') {
      const read = await sandbox.readWholeFile(found.value, COMMIT_FILE_BYTES, (size) =>
        err('file_too_large', `'${path}' is ${size} bytes; commit files this large yourself.`),
      );
      if (!read.ok) return read;
      const executable = process.platform !== 'win32' && (read.value.facts.mode & 0o111) !== 0;
      changes.push({ path, mode: executable ? '100755' : '100644', content: read.value.bytes });
    } else {
      return err('not_a_file', `'${path}' is a ${facts.kind} (a nested repository?); commit it yourself.`);
    }
  }
  return ok(changes);
}

/** A file mapped to a configured filter driver (git-lfs...) would be staged raw with the drivers off: refuse. */
async function refuseFiltered(repo: Repository, changes: readonly IndexChange[]): Promise<Result<void>> {
  const paths = changes.filter((change) => change.mode !== '0').map((change) => change.path);
  if (paths.length === 0 || repo.filterDrivers.size === 0) return ok(undefined);
  const attrs = await repo.git(['check-attr', '-z', '--stdin', 'filter'], { stdin: `${paths.join('\0')}\0` });
  if (!attrs.ok) return attrs;
  if (attrs.value.exitCode !== 0) return gitFailed('check-attr', attrs.value);
  const fields = attrs.value.stdout.split('\0');
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const driver = fields[index + 2] as string;
    if (repo.filterDrivers.has(driver)) {
      return err(
        'git_failed',
        `'${fields[index]}' goes through the filter driver '${driver}', a program Familiar does not run; the user can commit it with their own git.`,
      );
    }
  }
  return ok(undefined);
}

/**
 * Writes each content as a blob (`hash-object -w --stdin`, eol/ident conversions by path; links
 * raw) and returns `--index-info` records. `oidLength` spells a deletion's zero id (SHA-1 or SHA-256).
 */
async function writeBlobs(
  repo: Repository,
  changes: readonly IndexChange[],
  oidLength: number | undefined,
): Promise<Result<string[]>> {
  const oids = new Map<string, string>();
  for (const change of changes) {
    if (change.mode === '0') continue;
    const args =
      change.mode === '120000'
        ? ['hash-object', '-w', '--no-filters', '--stdin']
        : ['hash-object', '-w', '--stdin', `--path=${change.path}`];
    const hashed = await repo.git(args, { stdin: change.content });
    if (!hashed.ok) return hashed;
    if (hashed.value.exitCode !== 0) return gitFailed('hash-object', hashed.value);
    oids.set(change.path, hashed.value.stdout.trim());
  }
  const zero = '0'.repeat(oidLength ?? [...oids.values()][0]?.length ?? 40);
  return ok(
    changes.map((change) =>
      change.mode === '0' ? `0 ${zero}\t${change.path}` : `${change.mode} ${oids.get(change.path)}\t${change.path}`,
    ),
  );
}

async function gitValue(repo: Repository, args: readonly string[], options: Parameters<Repository['git']>[1] = {}) {
  const run = await repo.git(args, options);
  if (!run.ok) return run;
  if (run.value.exitCode !== 0) return gitFailed<string>(args[0] ?? 'git', run.value);
  return ok(run.value.stdout.trim());
}

export interface RecordedCommit {
  readonly commit: string;
  readonly parent: string | undefined;
}

/**
 * Records a commit with plumbing only (write-tree, commit-tree, update-ref): no hook runs, no
 * editor, no gpg, no gc, and no work-tree file is read by git. With `files`, their content as the
 * sandbox reads it now is committed on top of HEAD through a private index (the user's other staged
 * changes stay staged, as with `git commit -- paths`), then the same entries are written to the
 * user's index; without, the user's index is committed as it is.
 */
export async function recordCommit(
  repo: Repository,
  ctx: ToolContext,
  message: string,
  files: readonly string[] | undefined,
): Promise<Result<RecordedCommit>> {
  const head = await repo.git(['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  if (!head.ok) return head;
  const parent = head.value.exitCode === 0 ? head.value.stdout.trim() : undefined;
  let records: string[] = [];
  let tree: Result<string>;
  if (files === undefined) tree = await gitValue(repo, ['write-tree']);
  else {
    const changes = await readChanges(ctx, files);
    if (!changes.ok) return changes;
    const filtered = await refuseFiltered(repo, changes.value);
    if (!filtered.ok) return filtered;
    const written = await writeBlobs(repo, changes.value, parent?.length);
    if (!written.ok) return written;
    records = written.value;
    tree = await withScratchDir(async (dir) => {
      const indexFile = join(dir, 'index');
      const read = await gitValue(repo, parent === undefined ? ['read-tree', '--empty'] : ['read-tree', parent], {
        indexFile,
      });
      if (!read.ok) return read;
      const updated = await gitValue(repo, ['update-index', '-z', '--index-info'], {
        indexFile,
        stdin: records.map((record) => `${record}\0`).join(''),
      });
      if (!updated.ok) return updated;
      return gitValue(repo, ['write-tree'], { indexFile });
    });
  }
  if (!tree.ok) return tree;
  if (parent !== undefined) {
    const parentTree = await gitValue(repo, ['rev-parse', `${parent}^{tree}`]);
    if (!parentTree.ok) return parentTree;
    if (parentTree.value === tree.value) return err('no_change', 'The commit would change nothing.');
  }
  const body = message.endsWith('\n') ? message : `${message}\n`;
  const commit = await gitValue(
    repo,
    ['commit-tree', tree.value, ...(parent === undefined ? [] : ['-p', parent]), '-F', '-'],
    { stdin: body },
  );
  if (!commit.ok) return commit;
  const subject = message.split('\n', 1)[0] ?? '';
  // Compare-and-swap: if HEAD moved since it was read (the user committed meanwhile), nothing is lost.
  const moved = await gitValue(repo, [
    'update-ref',
    '-m',
    `commit${parent === undefined ? ' (initial)' : ''}: ${subject}`,
    'HEAD',
    commit.value,
    parent ?? '0'.repeat(commit.value.length),
  ]);
  if (!moved.ok) return moved;
  if (records.length > 0) {
    const staged = await gitValue(repo, ['update-index', '-z', '--index-info'], {
      stdin: records.map((record) => `${record}\0`).join(''),
    });
    if (!staged.ok) return staged;
  }
  return ok({ commit: commit.value, parent });
}
