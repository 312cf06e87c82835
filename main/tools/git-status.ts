import { z } from 'zod';
import { ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { defineTool } from './define-tool';
import { withRepository } from './git/git-repository';
import { readStatus } from './git/git-read-status';
import { changeKindSchema } from './kit/output-shapes';

const input = z.object({});

/** The result type is the output schema's (gitStatusOutput, below): one source, so the two cannot drift. */
export type GitStatusOutput = z.output<typeof gitStatusOutput>;

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const gitStatusOutput = z.object({
  branch: z.string().nullable(),
  upstream: z.string().nullable(),
  ahead: z.number().int(),
  behind: z.number().int(),
  clean: z.boolean(),
  staged: z.array(z.object({ path: z.string(), change: changeKindSchema, from: z.string().exactOptional() })),
  unstaged: z.array(z.object({ path: z.string(), change: changeKindSchema })),
  untracked: z.array(z.string()),
  conflicted: z.array(z.string()),
});

export const gitStatusTool = defineTool({
  name: 'git_status',
  description:
    'Show the git state of the workspace: branch, upstream with ahead/behind counts, staged and unstaged changes (path and kind: modified, added, deleted, renamed...), untracked files and conflicts. Paths are workspace-relative. Fails with not_a_git_repo unless the .git folder of a repository is at the workspace root.',
  input,
  output: gitStatusOutput,
  operations: ['read'],
  access: () => [{ operation: 'read', path: '.' }],
  async run(_args, ctx): Promise<Result<GitStatusOutput>> {
    const status = await withRepository(ctx, (repo) => readStatus(repo, ctx));
    if (!status.ok) return status;
    const { entries } = status.value;
    const staged = entries.flatMap((entry) =>
      entry.staged === undefined
        ? []
        : [{ path: entry.path, change: entry.staged, ...(entry.from === undefined ? {} : { from: entry.from }) }],
    );
    const unstaged = entries.flatMap((entry) =>
      entry.unstaged === undefined ? [] : [{ path: entry.path, change: entry.unstaged }],
    );
    const untracked = entries.filter((entry) => entry.untracked === true).map((entry) => entry.path);
    const conflicted = entries.filter((entry) => entry.conflicted === true).map((entry) => entry.path);
    return ok({
      branch: status.value.branch ?? null,
      upstream: status.value.upstream ?? null,
      ahead: status.value.ahead,
      behind: status.value.behind,
      clean: entries.length === 0,
      staged,
      unstaged,
      untracked,
      conflicted,
    });
  },
});
