import { join } from 'node:path';
import type { McpStdioServerConfig } from '../../../shared/mcp-servers';
import { mcpServerRules } from '../../platform/processes/process-rules';
import type { HostFolders } from '../../platform/processes/process-rules';
import { startServerProcess } from '../../platform/processes/server-process';
import type { ServerProcess } from '../../platform/processes/server-process';
import { ensureFolder } from '../../platform/storage/folders';
import { serverGate } from './mcp-server-network';
import type { ServerNetwork } from './mcp-server-network';

export interface McpProcessHost {
  /** The open workspace, the persona folder and Familiar's home, as every confined process gets them. */
  readonly folders: () => HostFolders;
  /** Where each server's own data folder is made (`<dataRoot>/<id>`), inside Familiar's home. */
  readonly dataRoot: string;
  /** Environment names the user lets through to children (settings: commands.passEnvironment). */
  readonly passEnvironment: () => readonly string[];
}

/**
 * A stdio server, started the one way every process starts (platform/processes) under its rules
 * (process-rules.ts: mcpServerRules): its working folder is the workspace unless it names one, its
 * environment the allow-listed one plus what the user set for it, and FAMILIAR_MCP_DATA names the
 * folder it may keep data in. Its network goes through Familiar's proxy to the gate (mcp-server-network.ts).
 */
export async function startMcpServerProcess(
  config: McpStdioServerConfig,
  host: McpProcessHost,
  network: ServerNetwork,
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
    network: { gate: serverGate(network) },
  });
}
