import { MCP_SECRET_KEPT } from '../../../shared/mcp-servers';
import type { McpServerConfig } from '../../../shared/mcp-servers';
import type { SecretName, SecretStore } from '../../platform/secrets/secret-store';
import type { SettingsStore } from '../../platform/storage/settings-store';

type Part = 'env' | 'header';

const valueSecret = (id: string, part: Part, key: string): SecretName => `mcp:${id}:${part}:${key}`;
/** The OAuth state of a Streamable HTTP server (tokens, its registered client, the PKCE verifier). */
export const oauthSecret = (id: string): SecretName => `mcp:${id}:oauth`;

const valuesOf = (config: McpServerConfig): [Part, Record<string, string>][] =>
  config.transport === 'stdio' ? [['env', config.env]] : [['header', config.headers]];

const withValues = (config: McpServerConfig, values: Record<string, string>): McpServerConfig =>
  config.transport === 'stdio' ? { ...config, env: values } : { ...config, headers: values };

const hasPlainValues = (servers: readonly McpServerConfig[]) =>
  servers.some((server) =>
    valuesOf(server).some(([, values]) => Object.values(values).some((v) => v !== MCP_SECRET_KEPT)),
  );

/**
 * The servers' environment and header values (tokens, API keys) kept in the secret store, never in
 * settings.json: settings keep each name with MCP_SECRET_KEPT in place of its value. Wraps the
 * settings store so every way a server is saved (the form, an import, a hand edit of the file read
 * at start) moves its values out before the file is written; plain values already in the file are
 * moved once, on opening. `reveal` gives a server's config with its values, for starting it.
 */
export async function keepMcpSecretsApart(
  settings: SettingsStore,
  secrets: SecretStore,
): Promise<{ settings: SettingsStore; reveal: (config: McpServerConfig) => McpServerConfig }> {
  const stash = async (servers: readonly McpServerConfig[]): Promise<McpServerConfig[]> => {
    const kept: McpServerConfig[] = [];
    for (const server of servers) {
      const [[part, values]] = valuesOf(server) as [[Part, Record<string, string>]];
      const masked: Record<string, string> = {};
      for (const [key, value] of Object.entries(values)) {
        if (value !== MCP_SECRET_KEPT) await secrets.set(valueSecret(server.id, part, key), value);
        masked[key] = MCP_SECRET_KEPT;
      }
      kept.push(withValues(server, masked));
    }
    return kept;
  };
  /** The values of names no longer in settings, and the sign-in of a removed server, are deleted. */
  const prune = async (servers: readonly McpServerConfig[], before: readonly McpServerConfig[]) => {
    const wanted = new Set<string>();
    for (const server of servers)
      for (const [part, values] of valuesOf(server))
        for (const key of Object.keys(values)) wanted.add(valueSecret(server.id, part, key));
    const removed = new Set(
      before.filter((old) => !servers.some((server) => server.id === old.id)).map((old) => oauthSecret(old.id)),
    );
    for (const name of secrets.names()) {
      const value = /^mcp:[^:]+:(env|header):/.test(name);
      if ((value && !wanted.has(name)) || removed.has(name)) await secrets.set(name, null);
    }
  };
  const wrapped: SettingsStore = {
    get: () => settings.get(),
    subscribe: (listener) => settings.subscribe(listener),
    async update(patch) {
      if (patch.mcp?.servers === undefined) return settings.update(patch);
      const before = settings.get().mcp.servers;
      const servers = await stash(patch.mcp.servers);
      const next = await settings.update({ ...patch, mcp: { ...patch.mcp, servers } });
      await prune(next.mcp.servers, before);
      return next;
    },
  };
  const current = settings.get().mcp.servers;
  if (hasPlainValues(current)) await wrapped.update({ mcp: { servers: current } });
  return {
    settings: wrapped,
    reveal(config) {
      const [[part, values]] = valuesOf(config) as [[Part, Record<string, string>]];
      const shown: Record<string, string> = {};
      for (const [key, value] of Object.entries(values)) {
        const stored = value === MCP_SECRET_KEPT ? secrets.get(valueSecret(config.id, part, key)) : value;
        if (stored !== undefined) shown[key] = stored;
      }
      return withValues(config, shown);
    },
  };
}
