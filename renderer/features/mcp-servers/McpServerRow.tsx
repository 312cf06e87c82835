import { useState } from 'react';
import type { McpServerConfig, McpServerStatus } from '../../../shared/mcp-servers';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { SecretValues } from './SecretValues';
import { SignInButton } from './SignInButton';

interface McpServerRowProps {
  readonly server: McpServerConfig;
  readonly status: McpServerStatus | undefined;
  /** Saves this server as changed (settings.update of the whole list). */
  readonly save: (next: McpServerConfig | null) => void;
  readonly onError: (message: string) => void;
}

/** One server: its switch, status line, what the sandbox grants it, Restart and Remove. */
export function McpServerRow({ server, status, save, onError }: McpServerRowProps) {
  const t = useT();
  // What the user is typing, only while they type: a host allowed meanwhile by an approval ("always
  // for this server") shows at once and is not overwritten by a stale field.
  const [typed, setTyped] = useState<string | null>(null);
  const hosts = typed ?? (server.transport === 'stdio' ? server.grants.hosts.join(', ') : '');
  const state = status?.state ?? (server.enabled ? 'starting' : 'disabled');
  const restart = async () => {
    const answer = await familiar.invoke('mcpServers.restart', { id: server.id });
    if (!answer.ok) onError(answer.error.message);
  };
  const what = server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
  return (
    <li className="language-server mcp-server" data-server={server.id}>
      <div className="field-row">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={server.enabled}
            onChange={(event) => save({ ...server, enabled: event.target.checked })}
          />
          <strong>{server.id}</strong>
        </label>
        <span className={`server-state server-state-${state}`} role="status">
          {t(`mcp.state.${state}`, { n: status?.tools ?? 0 })}
          {status?.error === undefined ? '' : `: ${status.error}`}
        </span>
        {state === 'needs-sign-in' && <SignInButton id={server.id} onError={onError} />}
        <button
          type="button"
          className="button button-small"
          disabled={!server.enabled}
          aria-label={t('mcp.restart', { id: server.id })}
          onClick={() => void restart()}
        >
          {t('settings.serverRestartShort')}
        </button>
        <button
          type="button"
          className="button button-small"
          aria-label={t('mcp.remove', { id: server.id })}
          onClick={() => save(null)}
        >
          {t('mcp.removeShort')}
        </button>
      </div>
      <p className="muted path">{what}</p>
      {server.transport === 'stdio' ? (
        <SecretValues values={server.env} save={(env) => save({ ...server, env })} />
      ) : (
        <SecretValues values={server.headers} save={(headers) => save({ ...server, headers })} />
      )}
      {status !== undefined && status.grants.length > 0 && (
        <p className="muted">
          {status.grants.join(' · ')}
          {status.confined === false ? ` · ${t('mcp.unconfined')}` : ''}
        </p>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={server.allowReadOnly}
          onChange={(event) => save({ ...server, allowReadOnly: event.target.checked })}
        />
        {t('mcp.allowReadOnly')}
      </label>
      {server.transport === 'stdio' && (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={server.grants.writeWorkspace}
              onChange={(event) =>
                save({ ...server, grants: { ...server.grants, writeWorkspace: event.target.checked } })
              }
            />
            {t('mcp.writeWorkspace')}
          </label>
          <label className="field-column">
            {t('mcp.hosts')}
            <input
              className="input"
              value={hosts}
              onChange={(event) => setTyped(event.target.value)}
              onBlur={() => {
                setTyped(null);
                if (typed === null) return;
                const list = typed
                  .split(',')
                  .map((host) => host.trim())
                  .filter((host) => host !== '');
                if (list.join(',') !== server.grants.hosts.join(',')) {
                  save({ ...server, grants: { ...server.grants, hosts: list } });
                }
              }}
            />
          </label>
        </>
      )}
      {status !== undefined && status.refusedHosts.length > 0 && (
        <p className="muted">{t('mcp.refused', { hosts: status.refusedHosts.join(', ') })}</p>
      )}
      {status !== undefined && status.skipped.length > 0 && (
        <p className="muted">
          {t('mcp.skipped', { tools: status.skipped.map((entry) => `${entry.tool} (${entry.reason})`).join('; ') })}
        </p>
      )}
      {status !== undefined && status.stderr.length > 0 && (
        <details>
          <summary>{t('mcp.stderr', { id: server.id })}</summary>
          <pre className="server-log">{status.stderr.join('\n')}</pre>
        </details>
      )}
    </li>
  );
}
