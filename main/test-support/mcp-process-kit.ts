import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, beforeAll } from 'vitest';
import { bundleChildScript, importOf } from './child-script';

/**
 * MCP mode as a real process: main/mcp.ts (what `npm run mcp` and `familiar-mcp` run) bundled from
 * source once per test file, and the SDK clients a test connects to it, closed after each test
 * (closing a stdio client ends the server process it started). mcp-session-kit.ts runs in process.
 */
export interface FamiliarMcpProcesses {
  /** The bundled program: `node <script> [--workspace DIR] [--home DIR] …`. */
  script(): string;
  /** Connects the client and closes it after the test. */
  connect(client: Client, transport: Transport): Promise<void>;
}

export function useFamiliarMcpProcesses(): FamiliarMcpProcesses {
  let script = '';
  const clients: Client[] = [];
  beforeAll(async () => {
    script = await bundleChildScript(importOf(join(import.meta.dirname, '..', 'mcp.ts')), { fileWorkers: true });
  }, 60_000);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  return {
    script: () => script,
    connect: async (client, transport) => {
      await client.connect(transport);
      clients.push(client);
    },
  };
}
