import { z } from 'zod';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ResolvedPath } from '../platform/disk/workspace-sandbox';
import { defineTool, onGivenPath } from './define-tool';
import type { ToolContext } from './define-tool';
import { parentRel } from '../platform/disk/path-syntax';

const input = z.object({
  path: z.string().describe('Folder to create, relative to the workspace root.'),
  parents: z.boolean().default(true).describe('Also create missing parent folders (default true).'),
});
type CreateArgs = z.output<typeof input>;

async function target(args: CreateArgs, ctx: ToolContext): Promise<Result<ResolvedPath>> {
  const resolved = await ctx.env.sandbox.resolve(args.path, 'write');
  if (!resolved.ok) return resolved;
  const path = resolved.value;
  if (path.facts?.kind === 'directory')
    return err('directory_exists', `The folder '${path.display}' already exists; nothing to do.`);
  if (path.facts !== undefined)
    return err('destination_exists', `'${path.display}' already exists and is not a folder.`);
  if (!args.parents) {
    const parent = await ctx.env.sandbox.resolve(parentRel(path.relPath) || '.', 'write');
    if (!parent.ok) return parent;
    if (parent.value.facts === undefined) {
      return err(
        'parent_dir_not_found',
        `The folder '${parent.value.display}' does not exist; pass parents: true to create it too.`,
      );
    }
  }
  return resolved;
}

/** The result's shape: it types run() and is the outputSchema MCP clients see. */
const createDirectoryOutput = z.object({ path: z.string(), created: z.literal(true) });

export const createDirectoryTool = defineTool({
  name: 'create_directory',
  description:
    'Create a folder in the workspace (and its missing parents unless parents is false). Answers directory_exists when it is already there.',
  input,
  output: createDirectoryOutput,
  additive: true,
  idempotent: true,
  operations: ['write'],
  access: onGivenPath('write'),
  async prepare(args, ctx) {
    const resolved = await target(args, ctx);
    if (!resolved.ok) return resolved;
    return ok({
      summary: `Create the folder ${resolved.value.display}`,
      path: resolved.value.display,
      facts: { parents: args.parents },
    });
  },
  async run(args, ctx) {
    const resolved = await target(args, ctx);
    if (!resolved.ok) return resolved;
    const path = resolved.value;
    const made = await ctx.env.locks.withLock([path.key], () =>
      Promise.resolve(ctx.env.sandbox.makeDirectories(path, args.parents)),
    );
    if (!made.ok) {
      if (made.error.code === 'file_not_found')
        return err('parent_dir_not_found', `The parent folder of '${path.display}' does not exist.`);
      if (made.error.code === 'destination_exists')
        return err('directory_exists', `'${path.display}' was created meanwhile.`);
      return made;
    }
    return ok({ path: path.display, created: true });
  },
});
