import { messageOf } from '../../shared/errors';
import type { Logger } from '../platform/logging/logger';
import type { ToolEnvironment } from '../tools/kit/tool-environment';
import type { ToolServices } from '../tools/kit/tool-services';

/**
 * How long after a workspace opens its saved index starts opening. A client that searches at once
 * (an agent's first call, the moment its handshake is over) finds the cores free: its own search
 * opens the index after it, as before, instead of sharing the cores with the open and the refresh
 * (measured: the first search after a restart 1.3× → 1.45× ripgrep with no delay). A search later
 * than ~1 s after the start finds the index open and vouched for, and answers from it (~0.6×).
 */
export const OPEN_SAVED_INDEX_AFTER_MS = 400;

/**
 * search_in_code's saved trigram index of the open workspace, opened and refreshed in the
 * background soon after the workspace opens (WorkspaceNgram.openSaved), so the first search after
 * a restart answers from it (issue 32 item 2). No index is built here: a workspace never searched
 * costs nothing. `opened` is called each time a workspace opens (the app's start included);
 * `dispose` as the app ends, so no open comes after.
 */
export function savedSearchIndexOpener(deps: {
  readonly services: Pick<ToolServices, 'ngramIndexes' | 'searchIndexEnabled'>;
  /** A tool call's environment as one made now would be: the open workspace, the memory switch. */
  readonly environment: () => Promise<ToolEnvironment>;
  readonly logger: Logger;
  readonly delayMs?: number;
}): { readonly opened: () => void; readonly dispose: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const open = async () => {
    if (!deps.services.searchIndexEnabled()) return;
    const env = await deps.environment();
    if (!disposed) deps.services.ngramIndexes.openSaved(env.workspaceRoot, env.sandbox);
  };
  return {
    opened: () => {
      clearTimeout(timer);
      if (disposed) return;
      // Never keeps a process alive that is ending.
      timer = setTimeout(() => {
        open().catch((error: unknown) =>
          deps.logger.warn(`The saved search index could not be opened: ${messageOf(error)}`),
        );
      }, deps.delayMs ?? OPEN_SAVED_INDEX_AFTER_MS).unref();
    },
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
