import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { defineTool } from './define-tool';
import type { ChangePreview, ToolContext } from './define-tool';
import { literalPathspec } from './git/git-output';
import { readStagedPaths, readStatus } from './git/git-read-status';
import { recordCommit } from './git/git-record-commit';
import { withRepository } from './git/git-repository';
import type { Repository } from './git/git-repository';

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

/** The result type is the output schema's (gitCommitOutput, below): one source, so the two cannot drift. */
export type GitCommitOutput = z.output<typeof gitCommitOutput>;

interface CommitPlan {
  /** Exactly the files the commit takes. */
  readonly files: string[];
  /** Commit these files' current content (paths given) or the index as the user staged it. */
  readonly stage: boolean;
  readonly branch: string | undefined;
}

/** git's own commit would finish these with a second parent or a sequencer step; a tool commit would not. */
const inProgress = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD'];

/**
 * The files a commit will take. With paths, every changed file under them that git_status shows
 * (confirmed through the sandbox; concealed memory files and secrets are never taken); without,
 * what the user already staged, and only when the assistant may see all of it: a commit takes the
 * whole index, so one staged entry the preview could not show (a secret, a concealed memory file)
 * refuses the commit rather than slipping in unseen.
 */
async function plan(args: CommitArgs, ctx: ToolContext, repo: Repository): Promise<Result<CommitPlan>> {
  const pathspecs: string[] = [];
  for (const path of args.paths ?? []) {
    const resolved = await ctx.env.sandbox.resolve(path, 'read');
    if (!resolved.ok) return resolved;
    pathspecs.push(literalPathspec(resolved.value.relPath));
  }
  for (const name of inProgress) {
    const marker = await ctx.env.sandbox.resolve(`${repo.gitDir}/${name}`, 'read');
    if (marker.ok && marker.value.facts !== undefined) {
      return err(
        'git_failed',
        `A merge, cherry-pick or revert is in progress (${name}); the user finishes it with their own git.`,
      );
    }
  }
  const status = await readStatus(repo, ctx, pathspecs.length === 0 ? ['.'] : pathspecs);
  if (!status.ok) return status;
  const entries = status.value.entries;
  if (entries.some((entry) => entry.conflicted === true)) {
    return err('git_failed', 'There are unresolved merge conflicts; resolve them before committing.');
  }
  let files: string[];
  if (pathspecs.length === 0) {
    const staged = await stagedFiles(repo, ctx);
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
  return ok({ files, stage: pathspecs.length > 0, branch: status.value.branch });
}

/** The whole index's staged paths, or permission_denied if any is hidden from the assistant. */
async function stagedFiles(repo: Repository, ctx: ToolContext): Promise<Result<string[]>> {
  const staged = await readStagedPaths(repo);
  if (!staged.ok) return staged;
  const files: string[] = [];
  let hidden = 0;
  for (const path of staged.value) {
    if (ctx.env.isConcealed(path) || ctx.env.sandbox.denyList.deniesRead(path)) hidden += 1;
    else files.push(path);
  }
  if (hidden > 0) {
    // Their names stay unsaid: a concealed or denied path is itself something the assistant must not learn.
    return err(
      'permission_denied',
      `${hidden} staged entr${hidden === 1 ? 'y is' : 'ies are'} hidden from the assistant (secrets or concealed memory files) and a commit without paths would take ${hidden === 1 ? 'it' : 'them'} unseen. ` +
        'Ask the user to unstage them (git restore --staged) or to commit them themselves, or pass paths to commit only those.',
      { hidden_staged_entries: hidden },
    );
  }
  return ok(files);
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const gitCommitOutput = z.object({
  commit: z.string(),
  branch: z.string().nullable(),
  files: z.array(z.string()),
  summary: z.string(),
});

export const gitCommitTool = defineTool({
  name: 'git_commit',
  description:
    'Commit changes with a message. With paths, the changes under those paths (including new and deleted files) are staged and committed; without, what is already staged is committed. ' +
    "Always asks the user first. The repository's hooks do not run (nor signing). Returns the new commit's hash.",
  input,
  output: gitCommitOutput,
  additive: true,
  // A commit runs git and writes history: the policy decides it as 'run', which asks by default.
  operations: ['run'],
  access: (args) => (args.paths ?? ['.']).map((path) => ({ operation: 'run' as const, path })),

  async prepare(args, ctx): Promise<Result<ChangePreview>> {
    const planned = await withRepository(ctx, (repo) => plan(args, ctx, repo));
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
    return withRepository(ctx, async (repo) => {
      const planned = await plan(args, ctx, repo);
      if (!planned.ok) return planned;
      const { files, stage, branch } = planned.value;
      const recorded = await recordCommit(repo, ctx, args.message, stage ? files : undefined);
      if (!recorded.ok) return recorded;
      const { commit, parent } = recorded.value;
      const where = branch === undefined || branch === '(detached)' ? 'detached HEAD' : branch;
      return ok({
        commit,
        branch: branch ?? null,
        files,
        summary: `[${where}${parent === undefined ? ' (root-commit)' : ''} ${commit.slice(0, 7)}] ${args.message.split('\n', 1)[0] ?? ''}`,
      });
    });
  },
});
