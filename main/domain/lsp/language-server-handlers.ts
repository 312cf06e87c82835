import { ok } from '../../../shared/result';
import type { LanguageServerRow } from '../../../shared/ipc/language-servers';
import type { Handlers } from '../../platform/ipc/dispatcher';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { LspService } from './lsp-service';

/** At most this many log lines cross to the page per server. */
const logLines = 20;

/** The panel's rows, shaped for the contract (no undefined pid, the log capped). */
export function languageServerRows(lsp: Pick<LspService, 'panel'>): LanguageServerRow[] {
  return lsp.panel().map((row) => ({
    id: row.id,
    state: row.state,
    userAdded: row.userAdded,
    ...(row.pid === undefined ? {} : { pid: row.pid }),
    restarts: row.restarts,
    log: row.log.slice(-logLines),
  }));
}

/** Settings → Code: the language servers of the open workspace, and the Restart button. */
export function createLanguageServerHandlers(
  lsp: Pick<LspService, 'panel' | 'restart'>,
  sandbox: () => Promise<WorkspaceSandbox>,
): Pick<Handlers, 'languageServers.list' | 'languageServers.restart'> {
  return {
    'languageServers.list': () => ok({ servers: languageServerRows(lsp) }),
    'languageServers.restart': async ({ id }) => {
      const restarted = await lsp.restart(await sandbox(), id);
      return restarted.ok ? ok({ servers: languageServerRows(lsp) }) : restarted;
    },
  };
}
