import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import { concealedMessage } from '../../platform/disk/workspace-sandbox';
import type { ToolContext } from '../define-tool';

export interface SubtreeFacts {
  readonly files: number;
  readonly folders: number;
}

/**
 * Before a folder is deleted or moved with everything in it: nothing inside may be something the
 * assistant could not delete or move on its own (a .env, a .git folder, memory files while memory is
 * off). Walks the whole subtree, unfiltered; answers what it holds.
 */
export async function guardSubtree(
  ctx: ToolContext,
  folder: ResolvedPath,
  verb: string,
): Promise<Result<SubtreeFacts>> {
  const { sandbox } = ctx.env;
  let files = 0;
  let folders = 0;
  let refusal: Result<never> | undefined;
  const walked = await sandbox.walk(folder, {
    recursive: true,
    includeHidden: true,
    unfiltered: true,
    signal: ctx.signal,
    visit: (entry) => {
      if (entry.protected) {
        refusal = err(
          'permission_denied',
          `'${folder.display}' holds Familiar's own data ('${entry.relPath}'), which tools never touch.`,
        );
        return 'stop';
      }
      if (sandbox.isConcealed(entry.relPath)) {
        refusal = err(
          'permission_denied',
          `'${folder.display}' holds '${entry.relPath}'. ${concealedMessage(entry.relPath)}`,
        );
        return 'stop';
      }
      const denied = sandbox.denyList.check(entry.relPath, 'write');
      if (!denied.ok) {
        refusal = err(
          'permission_denied',
          `'${folder.display}' holds '${entry.relPath}', which tools never change, so it cannot be ${verb} as a whole. ${denied.error.message}`,
        );
        return 'stop';
      }
      if (entry.kind === 'directory') folders += 1;
      else files += 1;
      return 'continue';
    },
  });
  if (refusal !== undefined) return refusal;
  if (!walked.ok) return walked;
  return ok({ files, folders });
}
