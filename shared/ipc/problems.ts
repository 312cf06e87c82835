import { z } from 'zod';

/**
 * Problem counts from the workspace's language servers, for the tree and the header. Sent only for
 * files a running server has published diagnostics for: no server, no counts.
 */
export const fileProblemsSchema = z.object({
  /** Workspace-relative, '/'-separated. */
  path: z.string().max(4096),
  errors: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
});
export type FileProblemCounts = z.infer<typeof fileProblemsSchema>;

export const problemsChangedSchema = z.object({
  /** The real workspace root the counts belong to: a page showing another folder ignores them. */
  root: z.string(),
  /** Each file's counts now (0 and 0: no problems any more). */
  files: z.array(fileProblemsSchema),
});
export type ProblemsChanged = z.infer<typeof problemsChangedSchema>;

export const problemsEvents = {
  'problems.changed': problemsChangedSchema,
};
