import { join } from 'node:path';
import type { McpStdioServerConfig } from '../../../shared/mcp-servers';
import { mcpServerRules } from '../../platform/processes/process-rules';
import type { HostFolders } from '../../platform/processes/process-rules';
import type { HostGate } from '../../platform/processes/network-proxy';
import { startServerProcess } from '../../platform/processes/server-process';
import type { ServerProcess } from '../../platform/processes/server-process';
import { ensureFolder } from '../../platform/storage/folders';

export interface McpProcessHost {
  /** The open workspace, the persona folder and Familiar's home, as every confined process gets them. */
  readonly folders: () => HostFolders;
  /** Where each server's own data folder is made (`<dataRoot>/<id>`), inside Familiar's home. */
  readonly dataRoot: string;
  /** Environment names the user lets through to children (settings: commands.passEnvironment). */
  readonly passEnvironment: () => readonly string[];
}

/** A host the user granted this server: `host` (any port) or `host:port`. */
const granted = (hosts: readonly string[], host: string, port: number): boolean => {
  const shown = host.includes(':') ? `[${host}]` : host;
  return hosts.includes(shown) || hosts.includes(`${shown}:${port}`);
};

/**
 * The gate of a server's network (network-proxy.ts): the hosts in its grants, nothing else. A
 * refused host is reported, so Settings can show it beside the server for the user to allow.
 */
export const serverGate =
  (hosts: readonly string[], onRefused: (host: string) => void): HostGate =>
  (target) => {
    if (granted(hosts, target.host, target.port)) return Promise.resolve({ allowed: true, local: false });
    onRefused(`${target.host}:${target.port}`);
    return Promise.resolve({
      allowed: false,
      reason: 'this MCP server may reach only the hosts allowed for it in Settings → MCP servers',
    });
  };

/**
 * A stdio server, started the one way every process starts (platform/processes) under its rules
 * (process-rules.ts: mcpServerRules): its working folder is the workspace unless it names one, its
 * environment the allow-listed one plus what the user set for it, and FAMILIAR_MCP_DATA names the
 * folder it may keep data in.
 */
export async function startMcpServerProcess(
  config: McpStdioServerConfig,
  host: McpProcessHost,
  onRefusedHost: (host: string) => void,
): Promise<ServerProcess> {
  const folders = host.folders();
  const dataDir = join(host.dataRoot, config.id);
  await ensureFolder(dataDir);
  return startServerProcess({
    file: config.command,
    args: config.args,
    cwd: config.cwd ?? folders.workspaceRoot,
    environment: {
      pass: [...host.passEnvironment()],
      set: { ...config.env, FAMILIAR_MCP_DATA: dataDir },
    },
    confinement: mcpServerRules(folders, { dataDir, writeWorkspace: config.grants.writeWorkspace }),
    network: { gate: serverGate(config.grants.hosts, onRefusedHost) },
  });
}
