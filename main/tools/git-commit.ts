import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { defineTool } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { gitFailed, literalPathspec, openRepository, readStagedPaths, readStatus, toWorkspacePath } from './git-cli';
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
 * (concealed memory files and secrets are never staged); without, what the user already staged, and
 * only when the assistant may see all of it: `git commit` takes the whole index, so one staged entry
 * the preview could not show (a secret, a concealed memory file, a file outside the workspace) refuses
 * the commit rather than slipping in unseen.
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
  let files: string[];
  if (pathspecs.length === 0) {
    const staged = await stagedFiles(repo.value, ctx);
    if (!staged.ok) return staged;
    files = staged.value;
  } else {
    files = entries.flatMap((entry) => (entry.from === undefined ? [entry.path] : [entry.path, entry.from]));
  }
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

/** The whole index's staged paths, workspace-relative, or permission_denied if any is hidden from the assistant. */
async function stagedFiles(repo: Repository, ctx: ToolContext): Promise<Result<string[]>> {
  const staged = await readStagedPaths(repo);
  if (!staged.ok) return staged;
  const files: string[] = [];
  let hidden = 0;
  for (const repoPath of staged.value) {
    const path = toWorkspacePath(repo, repoPath);
    if (path === undefined || ctx.env.isConcealed(path) || ctx.env.sandbox.denyList.deniesRead(path)) hidden += 1;
    else files.push(path);
  }
  if (hidden > 0) {
    // Their names stay unsaid: a concealed or denied path is itself something the assistant must not learn.
    return err(
      'permission_denied',
      `${hidden} staged entr${hidden === 1 ? 'y is' : 'ies are'} hidden from the assistant (secrets, concealed memory files or files outside the workspace) and a commit without paths would take ${hidden === 1 ? 'it' : 'them'} unseen. ` +
        'Ask the user to unstage them (git restore --staged) or to commit them themselves, or pass paths to commit only those.',
      { hidden_staged_entries: hidden },
    );
  }
  return ok(files);
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
      const added = await repo.gitApproved(['add', '-A', '--', ...pathspecs]);
      if (!added.ok) return added;
      if (added.value.exitCode !== 0) return gitFailed('add', added.value);
    }
    // The message goes through stdin: no length limit of a command line, no quoting.
    const committed = await repo.gitApproved(['commit', '--file=-', ...(stage ? ['--', ...pathspecs] : [])], {
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
