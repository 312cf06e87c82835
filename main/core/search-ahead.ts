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
 * What a search needs, made ahead in the background. Asked (prestartNow: familiar-mcp once a
 * client's handshake is done), ripgrep's sandbox (prestarted-launch.ts) once no call runs, so the
 * next search's walk does not wait for bubblewrap to set it up; not as the app starts, where it held
 * up the answer to a client's initialize (~45 ms). When a workspace opens (`opened`, the app's start
 * included), the sandbox of the folder open before goes (once asked, this one's is made), and after
 * `delayMs` search_in_code's saved trigram index is opened and refreshed (WorkspaceNgram.openSaved),
 * so the first search after a restart answers from it (issue 32 item 2); no index is built here: a
 * workspace never searched costs nothing. `dispose` as the app ends, so nothing is made after.
 */
export function searchAhead(deps: {
  readonly services: Pick<ToolServices, 'ngramIndexes' | 'searchIndexEnabled'>;
  /** A tool call's environment as one made now would be: the open workspace, the memory switch. */
  readonly environment: () => Promise<ToolEnvironment>;
  readonly logger: Logger;
  readonly delayMs?: number;
  /** Makes ripgrep's sandbox for the workspace ahead, and drops it (ripgrepAhead); tests leave it out. */
  readonly ripgrepAhead?: {
    readonly generation: () => number;
    readonly prestart: (env: ToolEnvironment, asOf: number) => Promise<void>;
    readonly drop: () => void;
  };
}): { readonly opened: () => void; readonly prestartNow: () => void; readonly dispose: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const warn = (what: string) => (error: unknown) => deps.logger.warn(`${what}: ${messageOf(error)}`);
  const open = async () => {
    if (!deps.services.searchIndexEnabled()) return;
    const env = await deps.environment();
    if (!disposed) deps.services.ngramIndexes.openSaved(env.workspaceRoot, env.sandbox);
  };
  /** Asked once: each folder opened after gets its sandbox too (an MCP client's roots bind one). */
  let asked = false;
  const prestart = () => {
    const ahead = deps.ripgrepAhead;
    if (disposed || ahead === undefined) return;
    const asOf = ahead.generation();
    deps
      .environment()
      .then((env) => (disposed ? undefined : ahead.prestart(env, asOf)))
      .catch(warn("ripgrep's sandbox could not be made ahead"));
  };
  return {
    prestartNow: () => {
      asked = true;
      prestart();
    },
    opened: () => {
      clearTimeout(timer);
      // The sandbox of the folder open before goes (a search in this one would not take it), and
      // any asked for before: this folder's is made instead, if one was asked for.
      deps.ripgrepAhead?.drop();
      if (disposed) return;
      if (asked) prestart();
      // Never keeps a process alive that is ending.
      timer = setTimeout(() => {
        open().catch(warn('The saved search index could not be opened'));
      }, deps.delayMs ?? OPEN_SAVED_INDEX_AFTER_MS).unref();
    },
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      deps.ripgrepAhead?.drop();
    },
  };
}
