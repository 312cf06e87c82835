import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { err } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { Logger } from '../../platform/logging/logger';
import type { WorkspaceService } from '../../domain/workspace/workspace-service';
import type { ToolExecutor } from '../../tool-calls/tool-executor';

/**
 * Which folder an MCP session works on. Familiar has one workspace per core: either the folder
 * given with --workspace (fixed: client roots are ignored), or the first of the client's roots that
 * is a file:// folder Familiar may open, read with roots/list after initialization and again on
 * notifications/roots/list_changed (as the reference filesystem server does). Switching goes through
 * the same WorkspaceService.open the app's folder picker uses, so the watcher, the language servers
 * and the remembered folder follow.
 */
export interface WorkspaceBinding {
  /** True once there is a folder to work on. */
  ready(): boolean;
  /** Reads the client's roots for this session (each HTTP session has its own Server). */
  attach(server: Server): void;
}

export interface WorkspaceBindingOptions {
  readonly workspace: Pick<WorkspaceService, 'current' | 'open'>;
  /** Started with --workspace: that folder stays, whatever roots a client offers. */
  readonly fixed: boolean;
  readonly logger: Logger;
}

export const workspaceUnavailable = (): Result<never> =>
  err(
    'workspace_unavailable',
    'Familiar has no workspace yet: start familiar-mcp with --workspace DIR, or use an MCP client that offers ' +
      'roots (a file:// folder, e.g. the project it has open).',
  );

/** The path of a root Familiar could open: file:// URIs only, as the roots spec requires. */
function folderOf(root: Root): string | undefined {
  if (!root.uri.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(root.uri);
  } catch {
    return undefined;
  }
}

export function createWorkspaceBinding(options: WorkspaceBindingOptions): WorkspaceBinding {
  const { logger } = options;
  let bound = options.fixed;
  // One roots/list at a time: a burst of list_changed notifications ends on the latest list.
  let syncing: Promise<void> = Promise.resolve();

  const useRoots = async (server: Server) => {
    const { roots } = await server.listRoots();
    for (const root of roots) {
      const folder = folderOf(root);
      if (folder === undefined) {
        logger.info(`MCP root ${root.uri} skipped: only file:// folders can be the workspace`);
        continue;
      }
      const opened = await options.workspace.open(folder);
      if (opened.ok) {
        bound = true;
        const others =
          roots.length > 1 ? ` (Familiar works on one folder: the first usable of ${roots.length} roots)` : '';
        logger.info(`MCP workspace from the client's roots: ${opened.value.path}${others}`);
        return;
      }
      logger.warn(`MCP root ${root.uri} skipped: ${opened.error.message}`);
    }
    bound = false;
    logger.warn('the MCP client offers no root Familiar can open: tool calls answer workspace_unavailable');
  };

  const sync = (server: Server) => {
    syncing = syncing
      .then(() => useRoots(server))
      .catch((error: unknown) => logger.warn(`could not read the MCP client's roots: ${String(error)}`));
  };

  return {
    ready: () => bound,
    attach(server) {
      const previous = server.oninitialized;
      server.oninitialized = () => {
        previous?.();
        const offersRoots = server.getClientCapabilities()?.roots !== undefined;
        if (options.fixed) {
          if (offersRoots) logger.info('MCP client roots ignored: started with --workspace');
          return;
        }
        if (offersRoots) sync(server);
        else if (!bound)
          logger.warn('no --workspace and the MCP client offers no roots: tool calls answer workspace_unavailable');
      };
      server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
        if (!options.fixed) sync(server);
      });
    },
  };
}

/** The executor, answering workspace_unavailable until there is a folder (never the core's fallback folder). */
export function requireWorkspace<E extends ToolExecutor>(executor: E, binding: Pick<WorkspaceBinding, 'ready'>): E {
  return {
    ...executor,
    execute: (...args: Parameters<ToolExecutor['execute']>) =>
      binding.ready() ? executor.execute(...args) : Promise.resolve(workspaceUnavailable()),
  };
}
