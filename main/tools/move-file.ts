import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool } from './define-tool';
import type { ToolContext } from './define-tool';
import { parentRel } from '../platform/disk/path-syntax';
import { guardSubtree } from './file-changes/subtree-guard';
import { entryTypeSchema } from './kit/output-shapes';

const input = z.object({
  source: z.string().describe('File or folder to move, relative to the workspace root.'),
  destination: z.string().describe('Its new path (including the name), relative to the workspace root.'),
  overwrite: z.boolean().default(false).describe('Replace an existing destination file (it goes to the trash).'),
});
type MoveArgs = z.output<typeof input>;

interface Ends {
  readonly source: ResolvedPath;
  readonly destination: ResolvedPath;
}

async function ends(args: MoveArgs, ctx: ToolContext): Promise<Result<Ends>> {
  const { sandbox } = ctx.env;
  // Both ends as entries: a symlink moves as a link and is never followed out of the workspace.
  const source = await sandbox.resolve(args.source, 'write', { followFinal: false });
  if (!source.ok) return source;
  const destination = await sandbox.resolve(args.destination, 'write', { followFinal: false });
  if (!destination.ok) return destination;
  const from = source.value;
  const to = destination.value;
  if (from.relPath === '' || to.relPath === '')
    return err('invalid_path', 'The workspace root cannot be moved or replaced.');
  if (from.facts === undefined) return err('file_not_found', `'${from.display}' does not exist; nothing to move.`);
  if (from.key === to.key)
    return err('no_change', `'${from.display}' and '${to.display}' are the same path; nothing to do.`);
  if (from.facts.kind === 'directory' && to.key.startsWith(`${from.key}/`)) {
    return err('invalid_path', `'${to.display}' is inside '${from.display}': a folder cannot be moved into itself.`);
  }
  if (to.facts !== undefined) {
    if (!args.overwrite) {
      return err(
        'destination_exists',
        `'${to.display}' already exists. Pass overwrite: true to replace it (the old one goes to the trash), or choose another name.`,
      );
    }
    if (to.facts.kind === 'directory') {
      return err(
        'destination_exists',
        `'${to.display}' is a folder and is never replaced by a move. To move into it, use '${to.display}/<name>' as destination.`,
      );
    }
  }
  if (from.facts.kind === 'directory') {
    const guarded = await guardSubtree(ctx, from, 'moved');
    if (!guarded.ok) return guarded;
  }
  return ok({ source: from, destination: to });
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const moveFileOutput = z.object({
  source: z.string(),
  destination: z.string(),
  type: entryTypeSchema,
  overwritten: z.boolean(),
  trash_path: z.string().exactOptional().describe('Where the replaced destination went, when overwrite replaced one.'),
});

export const moveFileTool = defineTool({
  name: 'move_file',
  description:
    'Move or rename a file, symlink or folder inside the workspace (missing destination folders are created). An existing destination is refused unless overwrite is true, then it goes to the trash.',
  input,
  output: moveFileOutput,
  operations: ['move'],
  access: (args) => [
    { operation: 'move', path: args.source },
    { operation: 'move', path: args.destination },
  ],
  async prepare(args, ctx) {
    const found = await ends(args, ctx);
    if (!found.ok) return found;
    const { source, destination } = found.value;
    return ok({
      summary: `Move ${source.display} to ${destination.display}${destination.facts === undefined ? '' : ' (replacing it)'}`,
      path: source.display,
      facts: { destination: destination.display, overwrite: destination.facts !== undefined },
    });
  },
  async run(args, ctx) {
    const found = await ends(args, ctx);
    if (!found.ok) return found;
    const { source, destination } = found.value;
    const { env } = ctx;
    return env.locks.withLock([source.key, destination.key], async () => {
      let trashPath: string | undefined;
      if (destination.facts === undefined) {
        const parent = await env.sandbox.resolve(parentRel(destination.relPath) || '.', 'write');
        if (!parent.ok) return parent;
        if (parent.value.facts === undefined) {
          const made = env.sandbox.makeDirectories(parent.value);
          if (!made.ok) return made;
        } else if (parent.value.facts.kind !== 'directory') {
          return err('not_a_directory', `'${parent.value.display}' is a file, not a folder.`);
        }
      } else {
        const trashed = await env.trash.moveIn(env.sandbox, destination);
        if (!trashed.ok) return trashed;
        trashPath = trashed.value;
      }
      // Both ends are walked again, strictly, by the move itself: a folder swapped meanwhile fails it.
      const moved = env.sandbox.moveEntry(source, destination);
      if (!moved.ok) return moved;
      env.readTracker.forget(ctx.conversationId, source.key);
      env.readTracker.forget(ctx.conversationId, destination.key);
      const kind = source.facts?.kind ?? 'file';
      return ok({
        source: source.display,
        destination: destination.display,
        type: kind === 'special' ? 'other' : kind,
        overwritten: trashPath !== undefined,
        ...(trashPath === undefined ? {} : { trash_path: trashPath }),
      });
    });
  },
});
