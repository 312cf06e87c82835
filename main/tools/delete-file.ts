import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool, onGivenPath } from './define-tool';
import type { ToolContext } from './define-tool';
import { guardSubtree } from './file-changes/subtree-guard';
import type { SubtreeFacts } from './file-changes/subtree-guard';
import { formatBytes } from '../../shared/format-bytes';
import { entryTypeSchema } from './kit/output-shapes';

const input = z.object({
  path: z.string().describe('File or folder to delete, relative to the workspace root.'),
  recursive: z.boolean().default(false).describe('Required to delete a folder that is not empty.'),
});
type DeleteArgs = z.output<typeof input>;

interface Target {
  readonly path: ResolvedPath;
  readonly subtree?: SubtreeFacts;
}

async function target(args: DeleteArgs, ctx: ToolContext): Promise<Result<Target>> {
  // followFinal: false — deleting a symlink removes the link, never what it points to.
  const resolved = await ctx.env.sandbox.resolve(args.path, 'write', { followFinal: false });
  if (!resolved.ok) return resolved;
  const path = resolved.value;
  if (path.relPath === '') return err('permission_denied', 'The workspace root itself cannot be deleted.');
  if (path.facts === undefined) return err('file_not_found', `'${path.display}' does not exist; nothing to delete.`);
  if (path.facts.kind !== 'directory') return ok({ path });
  const listed = ctx.env.sandbox.listDir(path);
  const entries = listed.ok ? listed.value.length : undefined;
  if (entries !== undefined && entries > 0 && !args.recursive) {
    return err(
      'directory_not_empty',
      `'${path.display}' is a folder with ${entries} entries. Pass recursive: true to delete it with everything in it.`,
      { entries },
    );
  }
  const subtree = await guardSubtree(ctx, path, 'deleted');
  if (!subtree.ok) return subtree;
  return ok({ path, subtree: subtree.value });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const deleteFileOutput = z.object({
  path: z.string(),
  type: entryTypeSchema,
  trash_path: z.string().describe('Where the deleted item was moved (restorable).'),
  files: z.number().int().exactOptional(),
});

export const deleteFileTool = defineTool({
  name: 'delete_file',
  description:
    "Delete a file, symlink or folder (a non-empty folder needs recursive: true). Nothing is lost: deleted items go to Familiar's trash, from which the user can restore them.",
  input,
  output: deleteFileOutput,
  idempotent: true,
  operations: ['delete'],
  access: onGivenPath('delete'),
  async prepare(args, ctx) {
    const found = await target(args, ctx);
    if (!found.ok) return found;
    const { path, subtree } = found.value;
    const what =
      subtree === undefined
        ? `${path.facts?.kind === 'symlink' ? 'the link' : 'the file'} ${path.display} (${formatBytes(path.facts?.size ?? 0)})`
        : `the folder ${path.display} (${subtree.files} files, ${subtree.folders} folders)`;
    return ok({
      summary: `Delete ${what}`,
      path: path.display,
      facts: {
        type: path.facts?.kind ?? 'file',
        recursive: args.recursive,
        ...(subtree === undefined ? {} : { files: subtree.files }),
      },
    });
  },
  async run(args, ctx) {
    const found = await target(args, ctx);
    if (!found.ok) return found;
    const { path, subtree } = found.value;
    const moved = await ctx.env.locks.withLock([path.key], () => ctx.env.trash.moveIn(ctx.env.sandbox, path));
    if (!moved.ok) return moved;
    ctx.env.readTracker.forget(ctx.conversationId, path.key);
    const kind = path.facts?.kind ?? 'file';
    return ok({
      path: path.display,
      type: kind === 'special' ? 'other' : kind,
      trash_path: moved.value,
      ...(subtree === undefined ? {} : { files: subtree.files }),
    });
  },
});
