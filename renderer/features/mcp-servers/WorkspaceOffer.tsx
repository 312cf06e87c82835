import type { McpServerStatus, McpWorkspaceOffer } from '../../../shared/mcp-servers';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { SignInButton } from './SignInButton';
import type { McpState } from './use-mcp-state';

interface WorkspaceOfferProps {
  readonly offered: McpWorkspaceOffer;
  readonly statuses: readonly McpServerStatus[];
  readonly onState: (next: McpState) => void;
  readonly onError: (message: string) => void;
  /** The chat's short notice (names and buttons) instead of Settings' full list. */
  readonly brief?: boolean;
}

/** The open workspace's `.mcp.json`: its servers, and Allow for this workspace / Ignore. */
export function WorkspaceOffer({ offered, statuses, onState, onError, brief = false }: WorkspaceOfferProps) {
  const t = useT();
  const decide = async (decision: 'allowed' | 'ignored') => {
    const answer = await familiar.invoke('mcpServers.decideOffer', { hash: offered.hash, decision });
    if (answer.ok) onState(answer.value);
    else onError(answer.error.message);
  };
  const buttons = (
    <div className="field-row">
      {offered.decision !== 'allowed' && (
        <button type="button" className="button button-primary" onClick={() => void decide('allowed')}>
          {t('mcp.offerAllow')}
        </button>
      )}
      {offered.decision !== 'ignored' && (
        <button type="button" className="button" onClick={() => void decide('ignored')}>
          {t('mcp.offerIgnore')}
        </button>
      )}
    </div>
  );
  if (brief) {
    return (
      <div className="banner mcp-offer-notice" role="group" aria-label={t('mcp.offered', { file: offered.file })}>
        <p>{t('mcp.offerNotice', { names: offered.servers.map((server) => server.id).join(', ') })}</p>
        {buttons}
      </div>
    );
  }
  return (
    <div className="field-column mcp-offer" role="group" aria-labelledby="mcp-offer-title">
      <h4 id="mcp-offer-title">{t('mcp.offered', { file: offered.file })}</h4>
      <p className="muted">{t('mcp.offeredExplain', { file: offered.file })}</p>
      {offered.changed && <p role="alert">{t('mcp.offeredChanged', { file: offered.file })}</p>}
      <ul className="language-servers">
        {offered.servers.map((server) => {
          const status = statuses.find((entry) => entry.id === server.id);
          const what = server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
          const names = Object.keys(server.transport === 'stdio' ? server.env : server.headers);
          return (
            <li key={server.id} className="language-server mcp-server" data-offered={server.id}>
              <strong>{server.id}</strong>
              {status !== undefined && (
                <span className={`server-state server-state-${status.state}`} role="status">
                  {' '}
                  {t(`mcp.state.${status.state}`, { n: status.tools })}
                  {status.error === undefined ? '' : `: ${status.error}`}
                </span>
              )}
              {status?.state === 'needs-sign-in' && <SignInButton id={server.id} onError={onError} />}
              <p className="muted path">{what}</p>
              {names.length > 0 && <p className="muted">{names.join(', ')}</p>}
            </li>
          );
        })}
      </ul>
      {offered.skipped.length > 0 && (
        <p className="muted">
          {t('mcp.skipped', { tools: offered.skipped.map((entry) => `${entry.name} (${entry.reason})`).join('; ') })}
        </p>
      )}
      {offered.decision === 'allowed' && <p className="muted">{t('mcp.offerAllowed')}</p>}
      {offered.decision === 'ignored' && <p className="muted">{t('mcp.offerIgnored')}</p>}
      {buttons}
    </div>
  );
}
