import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { defineTool } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { gitFailed, literalPathspec, openRepository, readStatus } from './git-cli';
import type { Repository } from './git-cli';

const input = z.object({
  message: z.string().trim().min(1).max(10_000).describe('The commit message (first line: a short summary).'),
  paths: z
    .array(z.string())
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'Files or folders to commit, workspace-relative; their changes (new, modified, deleted files) are staged and committed. Omit to commit what is already staged.',
    ),
});
type CommitArgs = z.output<typeof input>;

export interface GitCommitOutput {
  readonly commit: string;
  readonly branch: string | null;
  readonly files: string[];
  readonly summary: string;
}

interface CommitPlan {
  readonly repo: Repository;
  /** Exactly the files the commit takes. */
  readonly files: string[];
  /** Stage them first (paths given) or commit the index as the user staged it. */
  readonly stage: boolean;
  readonly branch: string | undefined;
}

/**
 * The files a commit will take. With paths, every changed file under them that the assistant may see
 * (concealed memory files and secrets are never staged); without, what the user already staged.
 */
async function plan(args: CommitArgs, ctx: ToolContext): Promise<Result<CommitPlan>> {
  const pathspecs: string[] = [];
  for (const path of args.paths ?? []) {
    const resolved = await ctx.env.sandbox.resolve(path, 'read');
    if (!resolved.ok) return resolved;
    pathspecs.push(literalPathspec(resolved.value.relPath));
  }
  const repo = await openRepository(ctx);
  if (!repo.ok) return repo;
  const status = await readStatus(repo.value, ctx, pathspecs.length === 0 ? ['.'] : pathspecs);
  if (!status.ok) return status;
  const entries = status.value.entries;
  if (entries.some((entry) => entry.conflicted === true)) {
    return err('git_failed', 'There are unresolved merge conflicts; resolve them before committing.');
  }
  const files =
    pathspecs.length === 0
      ? entries.filter((entry) => entry.staged !== undefined).map((entry) => entry.path)
      : entries.flatMap((entry) => (entry.from === undefined ? [entry.path] : [entry.path, entry.from]));
  if (files.length === 0) {
    return err(
      'no_change',
      pathspecs.length === 0
        ? 'Nothing is staged. Pass paths to commit their changes.'
        : 'Those paths have no changes to commit.',
    );
  }
  return ok({ repo: repo.value, files, stage: pathspecs.length > 0, branch: status.value.branch });
}

export const gitCommitTool = defineTool({
  name: 'git_commit',
  description:
    'Commit changes with a message. With paths, the changes under those paths (including new and deleted files) are staged and committed; without, what is already staged is committed. ' +
    "Always asks the user first. The repository's own commit hooks run. Returns the new commit's hash.",
  input,
  // A commit runs git and writes history: the policy decides it as 'run', which asks by default.
  operations: ['run'],
  access: (args) => (args.paths ?? ['.']).map((path) => ({ operation: 'run' as const, path })),

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const planned = await plan(args, ctx);
    if (!planned.ok) return planned;
    const { files, stage } = planned.value;
    return ok({
      summary: `git commit ${files.length} ${stage ? '' : 'staged '}file${files.length === 1 ? '' : 's'}: ${args.message.split('\n')[0] ?? ''}`,
      facts: {
        message: args.message,
        branch: planned.value.branch ?? '(detached)',
        files: files.join('\n'),
      },
    });
  },

  async run(args, ctx): Promise<Result<GitCommitOutput>> {
    const planned = await plan(args, ctx);
    if (!planned.ok) return planned;
    const { repo, files, stage } = planned.value;
    const pathspecs = stage ? files.map(literalPathspec) : [];
    if (stage) {
      const added = await repo.git(['add', '-A', '--', ...pathspecs]);
      if (!added.ok) return added;
      if (added.value.exitCode !== 0) return gitFailed('add', added.value);
    }
    // The message goes through stdin: no length limit of a command line, no quoting.
    const committed = await repo.git(['commit', '--file=-', ...(stage ? ['--', ...pathspecs] : [])], {
      stdin: args.message,
    });
    if (!committed.ok) return committed;
    if (committed.value.exitCode !== 0) return gitFailed('commit', committed.value);
    const head = await repo.git(['rev-parse', 'HEAD']);
    if (!head.ok) return head;
    return ok({
      commit: head.value.stdout.trim(),
      branch: planned.value.branch ?? null,
      files,
      summary: committed.value.stdout.trim().split('\n')[0] ?? '',
    });
  },
});
