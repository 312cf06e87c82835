import { vi } from 'vitest';
import type { McpServerStatus } from '../../shared/mcp-servers';
import type { ContractCore } from './contract-core';
import { everythingServer } from './mcp-host-kit';

/** The reference server (server-everything) over stdio, as Claude Desktop's JSON pastes it into mcpServers.import. */
export const everythingStdioJson = JSON.stringify({
  mcpServers: { everything: { command: process.execPath, args: [everythingServer, 'stdio'] } },
});

/** The first configured server once mcpServers.list says it is ready (20 s at most). */
export const firstServerReady = (run: ContractCore): Promise<McpServerStatus> =>
  vi.waitFor(
    async () => {
      const { servers } = await run.call<{ servers: McpServerStatus[] }>('mcpServers.list', {});
      const [server] = servers;
      if (server?.state !== 'ready') throw new Error(`not ready: ${JSON.stringify(server)}`);
      return server;
    },
    { timeout: 20_000, interval: 50 },
  );
