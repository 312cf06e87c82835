import { err, ok } from '../../../shared/result';
import type { Handlers } from '../../platform/ipc/dispatcher';
import type { WorkspaceService } from './workspace-service';

/**
 * workspace.chooseFolder: the desktop app's native dialog, then the same open() a typed path goes
 * through (so the same checks apply to a chosen folder). Without a dialog (browser mode, MCP) the
 * page is told to ask for a path instead.
 */
export function createChooseFolderHandler(
  open: WorkspaceService['open'],
  chooseFolder: (() => Promise<string | null>) | undefined,
): Pick<Handlers, 'workspace.chooseFolder'> {
  return {
    'workspace.chooseFolder': async () => {
      if (chooseFolder === undefined)
        return err('not_found', 'There is no folder dialog here: give the folder’s path instead.');
      const chosen = await chooseFolder();
      if (chosen === null) return ok({ path: null });
      return open(chosen);
    },
  };
}
