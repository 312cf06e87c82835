import { z } from 'zod';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { HeadTailBuffer } from '../sandbox/capped-output';
import { defineTool } from './define-tool';
import { gitFailed, literalPathspec, openRepository } from './git-cli';

/** The diff text the model gets: like a command's output, first and last half kept. */
const DIFF_BYTES = 50 * 1024;

const input = z.object({
  path: z.string().optional().describe('A file or folder, workspace-relative; default the whole workspace.'),
  staged: z
    .boolean()
    .default(false)
    .describe('true: what is staged for the next commit (git diff --cached); false: unstaged changes.'),
});

export interface GitDiffOutput {
  readonly staged: boolean;
  readonly files: { path: string; additions: number | null; deletions: number | null }[];
  readonly diff: string;
  readonly truncated: boolean;
  readonly notice?: string;
}

export const gitDiffTool = defineTool({
  name: 'git_diff',
  description:
    'Show changes as a unified diff: unstaged by default, staged with staged: true, optionally for one path. Returns the files with added/deleted line counts (null for binary) and the diff text (capped at 50 KB keeping start and end). Untracked files are not in a diff: see git_status.',
  input,
  operations: ['read'],
  returnsContent: true,
  access: (args) => [{ operation: 'read', path: args.path ?? '.' }],
  async run(args, ctx): Promise<Result<GitDiffOutput>> {
    let pathspec = '.';
    if (args.path !== undefined) {
      const resolved = await ctx.env.sandbox.resolve(args.path, 'read');
      if (!resolved.ok) return resolved;
      pathspec = literalPathspec(resolved.value.relPath);
    }
    const repo = await openRepository(ctx);
    if (!repo.ok) return repo;
    const base = [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      // As git_status: no `git status` inside a submodule under its own config (see readStatus).
      '--ignore-submodules=dirty',
      '--relative',
      ...(args.staged ? ['--cached'] : []),
    ];
    const numstat = await repo.value.git([...base, '--numstat', '-z', '--', pathspec]);
    if (!numstat.ok) return numstat;
    if (numstat.value.exitCode !== 0) return gitFailed('diff', numstat.value);
    const files = parseNumstat(numstat.value.stdout);
    // Files the assistant must not see (memory while it is off, secrets) are left out of the text too.
    const visible = files.filter(
      (file) => !ctx.env.isConcealed(file.path) && !ctx.env.sandbox.denyList.deniesRead(file.path),
    );
    if (visible.length === 0) return ok({ staged: args.staged, files: [], diff: '', truncated: false });
    const pathspecs = visible.length === files.length ? [pathspec] : visible.map((file) => literalPathspec(file.path));
    const diff = await repo.value.git([...base, '--', ...pathspecs]);
    if (!diff.ok) return diff;
    if (diff.value.exitCode !== 0) return gitFailed('diff', diff.value);
    const capped = new HeadTailBuffer(DIFF_BYTES);
    capped.push(Buffer.from(diff.value.stdout));
    const shown = capped.text();
    return ok({
      staged: args.staged,
      files: visible,
      diff: shown.text,
      truncated: shown.truncated,
      ...(shown.truncated ? { notice: 'The diff was cut in the middle; pass path for one file at a time.' } : {}),
    });
  },
});

/** `--numstat -z`: "added\tdeleted\tpath\0", or for renames "added\tdeleted\t\0from\0to\0". */
function parseNumstat(text: string): GitDiffOutput['files'] {
  const fields = text.split('\0');
  const files: GitDiffOutput['files'] = [];
  for (let index = 0; index < fields.length; index += 1) {
    const field = fields[index] as string;
    if (field === '') continue;
    const [added, deleted, path] = field.split('\t');
    let name = path ?? '';
    if (name === '') {
      index += 2;
      name = fields[index] ?? '';
    }
    const count = (value: string | undefined) => (value === undefined || value === '-' ? null : Number(value));
    files.push({ path: name, additions: count(added), deletions: count(deleted) });
  }
  return files;
}
