import { useState } from 'react';
import { FormError } from '../../app/FormError';
import type { McpServerConfig } from '../../../shared/mcp-servers';
import { familiar } from '../../ipc/familiar';
import { useT } from '../../i18n/i18n';
import { settingsActions, useSettingsStore } from '../settings/settings-store';
import { SettingsSection } from '../settings/SettingsSection';
import { boundsOf, WholeNumberField } from '../settings/WholeNumberField';
import { settingsPatchSchema } from '../../../shared/settings';
import { AddMcpServerForm } from './AddMcpServerForm';
import { McpServerRow } from './McpServerRow';
import { useMcpState } from './use-mcp-state';
import { WorkspaceOffer } from './WorkspaceOffer';

/**
 * Settings → MCP servers (issue 29): the user's servers with their switches, status lines and
 * sandbox grants, a form to add one or paste another host's JSON, and every "always allow" answer
 * with its Revoke button, and what the open workspace's .mcp.json offers (Allow / Ignore). Statuses
 * come from mcpServers.list and mcpServers.changed.
 */
export function McpServersSection() {
  const t = useT();
  const mcp = useSettingsStore((state) => state.settings?.mcp);
  const [mcpState, setMcpState] = useMcpState();
  const statuses = mcpState.servers;
  const [error, setError] = useState<string | null>(null);
  if (mcp === undefined) return null;
  const saveServers = (servers: McpServerConfig[]) =>
    void settingsActions.update(familiar, { mcp: { servers } }).catch((failure: unknown) => setError(String(failure)));
  const saveOne = (id: string) => (next: McpServerConfig | null) =>
    saveServers(
      next === null
        ? mcp.servers.filter((server) => server.id !== id)
        : mcp.servers.map((server) => (server.id === id ? next : server)),
    );
  return (
    <SettingsSection id="settings-mcp" title={t('mcp.title')}>
      <p className="muted">{t('mcp.explain')}</p>
      {mcp.servers.length === 0 ? (
        <p className="muted">{t('mcp.none')}</p>
      ) : (
        <ul className="language-servers">
          {mcp.servers.map((server) => (
            <McpServerRow
              key={JSON.stringify(server)}
              server={server}
              status={statuses.find((status) => status.id === server.id)}
              save={saveOne(server.id)}
              onError={setError}
            />
          ))}
        </ul>
      )}
      {mcpState.offered !== null && mcpState.offered.servers.length > 0 && (
        <WorkspaceOffer offered={mcpState.offered} statuses={statuses} onState={setMcpState} onError={setError} />
      )}
      <AddMcpServerForm add={(server) => saveServers([...mcp.servers, server])} onError={setError} />
      <div className="field-column" role="group" aria-labelledby="mcp-always-title">
        <h4 id="mcp-always-title">{t('mcp.always')}</h4>
        {mcp.alwaysAllowed.length === 0 ? (
          <p className="muted">{t('mcp.alwaysNone')}</p>
        ) : (
          <ul className="mcp-always">
            {mcp.alwaysAllowed.map((entry) => {
              const name = `${entry.server} → ${entry.tool}`;
              return (
                <li key={`${entry.server}/${entry.tool}`} className="field-row">
                  <span>{name}</span>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('mcp.revoke', { tool: name })}
                    onClick={() =>
                      void settingsActions.update(familiar, {
                        mcp: { alwaysAllowed: mcp.alwaysAllowed.filter((kept) => kept !== entry) },
                      })
                    }
                  >
                    {t('mcp.revokeShort')}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <WholeNumberField
        label={t('settings.mcp.samplingMaxTokens')}
        value={mcp.samplingMaxTokens}
        {...boundsOf(settingsPatchSchema.shape.mcp.unwrap().shape.samplingMaxTokens)}
        onCommit={(next) => void settingsActions.update(familiar, { mcp: { samplingMaxTokens: next } })}
      />
      <p className="muted">{t('settings.mcp.samplingMaxTokens.explain')}</p>
      <FormError inline message={error} />
    </SettingsSection>
  );
}
