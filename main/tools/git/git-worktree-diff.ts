import { structuredPatch } from 'diff';
import type { StructuredPatchHunk } from 'diff';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import type { ToolContext } from '../define-tool';
import { blobOid, blobSizes, isZeroOid, readBlobs } from './git-blobs';
import { confirmGitPath } from './git-confirm';
import { gitFailed } from './git-output';
import type { Repository } from './git-repository';

/** Per side and file: the model sees at most 50 KB of diff text; a bigger file is named, not diffed. */
const FILE_BYTES = 4 * 1024 * 1024;
/** All blobs and files read for one diff. */
const TOTAL_BYTES = 64 * 1024 * 1024;
/** git's own test for binary content: a NUL in the first 8000 bytes. */
const BINARY_SNIFF = 8000;

export interface DiffFile {
  readonly path: string;
  /** null for binary files and for files whose text is not shown. */
  readonly additions: number | null;
  readonly deletions: number | null;
}

interface RawEntry {
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldOid: string;
  readonly status: string;
  readonly path: string;
}

/** `--raw -z` records: ":<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0". */
function parseRaw(text: string): RawEntry[] {
  const fields = text.split('\0');
  const entries: RawEntry[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [oldMode, newMode, oldOid, , status] = (fields[index] as string).slice(1).split(' ');
    const path = fields[index + 1] as string;
    if (oldMode === undefined || newMode === undefined || oldOid === undefined || status === undefined) continue;
    entries.push({ oldMode, newMode, oldOid, status: status.slice(0, 1), path });
  }
  return entries;
}

/** Which paths git stores with LF while the work tree may hold CRLF (core.autocrlf, text/eol attributes). */
async function normalizedPaths(repo: Repository, paths: readonly string[]): Promise<Result<Set<string>>> {
  const normalized = new Set<string>();
  if (paths.length === 0) return ok(normalized);
  const autocrlf = await repo.git(['config', '--get', 'core.autocrlf']);
  if (!autocrlf.ok) return autocrlf;
  const byConfig = /^(true|input)$/i.test(autocrlf.value.stdout.trim());
  const attrs = await repo.git(['check-attr', '-z', '--stdin', 'text', 'eol'], { stdin: `${paths.join('\0')}\0` });
  if (!attrs.ok) return attrs;
  if (attrs.value.exitCode !== 0) return gitFailed('check-attr', attrs.value);
  const fields = attrs.value.stdout.split('\0');
  const unset = new Set<string>();
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const [path, attribute, value] = [fields[index] as string, fields[index + 1], fields[index + 2]];
    if (attribute === 'text' && value === 'unset') unset.add(path);
    else if (value !== 'unspecified' && value !== 'unset') normalized.add(path);
  }
  if (byConfig) for (const path of paths) if (!unset.has(path)) normalized.add(path);
  return ok(normalized);
}

const isBinary = (bytes: Buffer | undefined) => bytes !== undefined && bytes.subarray(0, BINARY_SNIFF).includes(0);

/** As git prints a hunk range: the count left out when 1, and an empty side (a new or deleted file) as 0,0. */
const range = (start: number, lines: number) => (lines === 1 ? `${start}` : `${lines === 0 ? 0 : start},${lines}`);

function formatHunks(hunks: readonly StructuredPatchHunk[]): string {
  return hunks
    .map(
      (hunk) =>
        `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n${hunk.lines.join('\n')}\n`,
    )
    .join('');
}

/** The worktree side of one entry, read through the sandbox (what git saw is not trusted). */
type WorktreeSide =
  | { readonly kind: 'absent' }
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'not_shown'; readonly why: string };

async function readWorktreeSide(
  ctx: ToolContext,
  entry: RawEntry,
  found: ResolvedPath | 'gone',
): Promise<WorktreeSide> {
  if (found === 'gone' || entry.status === 'D') return { kind: 'absent' };
  const { sandbox } = ctx.env;
  const kind = found.facts?.kind;
  if (entry.newMode === '120000') {
    if (kind !== 'symlink') return { kind: 'not_shown', why: 'it changed while it was being read' };
    const target = sandbox.readLink(found);
    return target.ok
      ? { kind: 'bytes', bytes: Buffer.from(target.value) }
      : { kind: 'not_shown', why: target.error.message };
  }
  if (kind !== 'file') return { kind: 'not_shown', why: 'it changed while it was being read' };
  const read = await sandbox.readWholeFile(found, FILE_BYTES, () => err('file_too_large', 'too large to diff'));
  return read.ok ? { kind: 'bytes', bytes: read.value.bytes } : { kind: 'not_shown', why: read.error.message };
}

/**
 * The unstaged diff (index → work tree) with the work-tree side read through the sandbox, never by
 * git: git lists what changed and supplies the index side (objects inside the workspace's
 * repository); the text shown is computed here from what the sandbox read. A file swapped for an
 * outside link or a hard link while git looked is dropped (confirmGitPath) or read as what it is
 * now inside the workspace, so no outside byte can reach the answer.
 */
export async function diffWorktree(
  repo: Repository,
  ctx: ToolContext,
  pathspec: string,
): Promise<Result<{ files: DiffFile[]; text: string }>> {
  const raw = await repo.git([
    'diff',
    '--raw',
    '-z',
    '--no-abbrev',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--ignore-submodules=all',
    '--',
    pathspec,
  ]);
  if (!raw.ok) return raw;
  if (raw.value.exitCode !== 0) return gitFailed('diff', raw.value);
  const confirmed: { entry: RawEntry; found: ResolvedPath | 'gone' }[] = [];
  for (const entry of parseRaw(raw.value.stdout)) {
    if (entry.newMode === '160000' || entry.oldMode === '160000') continue;
    const found = await confirmGitPath(ctx.env.sandbox, entry.path, false);
    if (found !== undefined) confirmed.push({ entry, found });
  }
  const oids = [...new Set(confirmed.map(({ entry }) => entry.oldOid).filter((oid) => !isZeroOid(oid)))];
  const sizes = await blobSizes(repo, oids);
  if (!sizes.ok) return sizes;
  const wanted = oids.filter((oid) => (sizes.value.get(oid) ?? Infinity) <= FILE_BYTES);
  let budget = TOTAL_BYTES;
  const fetched: string[] = [];
  for (const oid of wanted) {
    const size = sizes.value.get(oid) ?? 0;
    if (size > budget) break;
    budget -= size;
    fetched.push(oid);
  }
  const blobs = await readBlobs(repo, fetched, TOTAL_BYTES - budget);
  if (!blobs.ok) return blobs;
  const normalized = await normalizedPaths(
    repo,
    confirmed.map(({ entry }) => entry.path),
  );
  if (!normalized.ok) return normalized;

  const files: DiffFile[] = [];
  let text = '';
  for (const { entry, found } of confirmed) {
    const { path, oldMode, newMode, oldOid } = entry;
    const created = isZeroOid(oldOid) && oldMode === '000000';
    const oldBytes = created ? Buffer.alloc(0) : blobs.value.get(oldOid);
    const side =
      budget > 0
        ? await readWorktreeSide(ctx, entry, found)
        : ({ kind: 'not_shown', why: 'the diff is too large' } as const);
    if (side.kind === 'bytes') budget -= side.bytes.length;
    const deleted = side.kind === 'absent';
    const newBytes = side.kind === 'bytes' ? side.bytes : deleted ? Buffer.alloc(0) : undefined;
    let header = `diff --git a/${path} b/${path}\n`;
    if (created) header += `new file mode ${newMode}\n`;
    else if (deleted) header += `deleted file mode ${oldMode}\n`;
    else if (oldMode !== newMode) header += `old mode ${oldMode}\nnew mode ${newMode}\n`;
    const newOid = newBytes === undefined ? '' : deleted ? oldOid.replace(/./g, '0') : blobOid(newBytes, oldOid.length);
    const modeSuffix = !created && !deleted && oldMode === newMode ? ` ${oldMode}` : '';
    if (entry.status === 'U') {
      text += `* Unmerged path ${path}\n`;
      files.push({ path, additions: null, deletions: null });
      continue;
    }
    if (oldBytes === undefined || newBytes === undefined) {
      const why = side.kind === 'not_shown' ? side.why : 'the file is too large to diff';
      text += `${header}(content not shown: ${why})\n`;
      files.push({ path, additions: null, deletions: null });
      continue;
    }
    // Same content, different mode: only the mode lines.
    if (newOid === oldOid) {
      text += header;
      files.push({ path, additions: 0, deletions: 0 });
      continue;
    }
    header += `index ${oldOid.slice(0, 7)}..${newOid.slice(0, 7)}${modeSuffix}\n`;
    if (isBinary(oldBytes) || isBinary(newBytes)) {
      text += `${header}Binary files ${created ? '/dev/null' : `a/${path}`} and ${deleted ? '/dev/null' : `b/${path}`} differ\n`;
      files.push({ path, additions: null, deletions: null });
      continue;
    }
    const before = oldBytes.toString('utf8');
    let after = newBytes.toString('utf8');
    if (normalized.value.has(path) && !before.includes('\r')) after = after.replaceAll('\r\n', '\n');
    const patch = structuredPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
      context: 3,
      maxEditLength: 100_000,
      timeout: 2000,
    });
    header += `--- ${created ? '/dev/null' : `a/${path}`}\n+++ ${deleted ? '/dev/null' : `b/${path}`}\n`;
    if (patch === undefined) {
      text += `${header}(too many changes to show)\n`;
      files.push({ path, additions: null, deletions: null });
      continue;
    }
    // Only line endings differed, and git stores them normalized: nothing to show (git shows nothing).
    if (patch.hunks.length === 0 && oldMode === newMode) continue;
    const lines = patch.hunks.flatMap((hunk) => hunk.lines);
    text += header + formatHunks(patch.hunks);
    files.push({
      path,
      additions: lines.filter((line) => line.startsWith('+')).length,
      deletions: lines.filter((line) => line.startsWith('-')).length,
    });
  }
  return ok({ files, text });
}
