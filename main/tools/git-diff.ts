import { z } from 'zod';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { HeadTailBuffer } from '../platform/processes/capped-output';
import { noticeSchema } from './kit/output-shapes';
import { defineTool } from './define-tool';
import type { ToolContext } from './define-tool';
import { confirmGitPath } from './git/git-confirm';
import { gitFailed, literalPathspec } from './git/git-output';
import { withRepository } from './git/git-repository';
import type { Repository } from './git/git-repository';
import { diffWorktree } from './git/git-worktree-diff';
import type { DiffFile } from './git/git-worktree-diff';

/** The diff text the model gets: like a command's output, first and last half kept. */
const DIFF_BYTES = 50 * 1024;

const input = z.object({
  path: z.string().optional().describe('A file or folder, workspace-relative; default the whole workspace.'),
  staged: z
    .boolean()
    .default(false)
    .describe('true: what is staged for the next commit (git diff --cached); false: unstaged changes.'),
});

/** The result type is the output schema's (gitDiffOutput, below): one source, so the two cannot drift. */
export type GitDiffOutput = z.output<typeof gitDiffOutput>;

/** `--numstat -z`: "added\tdeleted\tpath\0" (renames are off). */
function parseNumstat(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  for (const field of text.split('\0')) {
    if (field === '') continue;
    const [added, deleted, ...path] = field.split('\t');
    const count = (value: string | undefined) => (value === undefined || value === '-' ? null : Number(value));
    files.push({ path: path.join('\t'), additions: count(added), deletions: count(deleted) });
  }
  return files;
}

/**
 * HEAD → index: both sides are objects of the repository (inside the workspace, checked when it was
 * opened); git reads no work-tree file for it. The paths are still confirmed like every git answer.
 */
async function diffStaged(
  repo: Repository,
  ctx: ToolContext,
  pathspec: string,
): Promise<Result<{ files: DiffFile[]; text: string }>> {
  const base = [
    'diff',
    '--cached',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    '--ignore-submodules=all',
  ];
  const numstat = await repo.git([...base, '--numstat', '-z', '--', pathspec]);
  if (!numstat.ok) return numstat;
  if (numstat.value.exitCode !== 0) return gitFailed('diff', numstat.value);
  const files: DiffFile[] = [];
  for (const file of parseNumstat(numstat.value.stdout)) {
    if ((await confirmGitPath(ctx.env.sandbox, file.path, false)) !== undefined) files.push(file);
  }
  if (files.length === 0) return ok({ files, text: '' });
  const diff = await repo.git([...base, '--', ...files.map((file) => literalPathspec(file.path))]);
  if (!diff.ok) return diff;
  if (diff.value.exitCode !== 0) return gitFailed('diff', diff.value);
  return ok({ files, text: diff.value.stdout });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const gitDiffOutput = z.object({
  staged: z.boolean(),
  files: z.array(
    z.object({ path: z.string(), additions: z.number().int().nullable(), deletions: z.number().int().nullable() }),
  ),
  diff: z.string(),
  truncated: z.boolean(),
  notice: noticeSchema,
});

export const gitDiffTool = defineTool({
  name: 'git_diff',
  description:
    'Show changes as a unified diff: unstaged by default, staged with staged: true, optionally for one path. Returns the files with added/deleted line counts (null for binary) and the diff text (capped at 50 KB keeping start and end). Untracked files are not in a diff: see git_status.',
  input,
  output: gitDiffOutput,
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
    const diff = await withRepository(ctx, (repo) =>
      args.staged ? diffStaged(repo, ctx, pathspec) : diffWorktree(repo, ctx, pathspec),
    );
    if (!diff.ok) return diff;
    const capped = new HeadTailBuffer(DIFF_BYTES);
    capped.push(Buffer.from(diff.value.text));
    const shown = capped.text();
    return ok({
      staged: args.staged,
      files: diff.value.files,
      diff: shown.text,
      truncated: shown.truncated,
      ...(shown.truncated ? { notice: 'The diff was cut in the middle; pass path for one file at a time.' } : {}),
    });
  },
});
