import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { mcpServerConfigSchema } from '../../shared/mcp-servers';
import type { McpServerConfig, McpStdioServerConfig } from '../../shared/mcp-servers';
import { McpServerManager } from '../domain/mcp-servers/mcp-server-manager';
import type { McpServerManagerOptions } from '../domain/mcp-servers/mcp-server-manager';
import { startMcpServerProcess } from '../domain/mcp-servers/mcp-server-process';
import { useTempDirs } from './temp-dir';

const resolve = createRequire(import.meta.url).resolve;
/** The reference servers nobody here wrote (devDependencies). */
export const everythingServer = resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemServer = resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

export const stdioServer = (id: string, args: string[], extra: Partial<McpStdioServerConfig> = {}) =>
  mcpServerConfigSchema.parse({
    id,
    transport: 'stdio',
    command: process.execPath,
    args,
    ...extra,
  }) as McpStdioServerConfig;

/**
 * A folder layout for MCP host tests (workspace, Familiar home with its data root, a user home) and
 * managers that start servers the real way (confined when the system can), all stopped after each test.
 */
export function useMcpHost() {
  const tempDir = useTempDirs();
  const managers: McpServerManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.dispose()));
  });
  return async (options: Partial<McpServerManagerOptions> = {}) => {
    const workspace = await tempDir('mcp-host-workspace-');
    const familiarHome = await tempDir('mcp-host-familiar-');
    const userHome = await tempDir('mcp-host-home-');
    await mkdir(join(familiarHome, 'workspace'));
    const manager = new McpServerManager({
      startProcess: (config, network) =>
        startMcpServerProcess(
          config,
          {
            folders: () => ({
              workspaceRoot: workspace,
              personaDir: join(familiarHome, 'workspace'),
              familiarHome,
              userHome,
              memoryOn: false,
            }),
            dataRoot: join(familiarHome, 'mcp-servers'),
            passEnvironment: () => [],
          },
          network,
        ),
      workspaceRoot: () => workspace,
      version: 'test',
      backoffMs: [50, 100],
      startTimeoutMs: 15_000,
      ...options,
    });
    managers.push(manager);
    /** A plain Node script in the workspace (a confined server sees /tmp as its own, empty). */
    const script = async (name: string, source: string) => {
      const file = join(workspace, name);
      await writeFile(file, source);
      return file;
    };
    return { manager, workspace, familiarHome, userHome, script };
  };
}

export type { McpServerConfig };
