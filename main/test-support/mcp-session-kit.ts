import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../core/create-core';
import { createStderrLogger } from '../platform/logging/logger';
import { createMcpSessions } from '../front-doors/mcp/mcp-session';
import { createTestCore } from './test-core';

/**
 * The MCP tests' setup: a core on temp folders and the official SDK client linked in memory to a
 * session server. Shared by the roots, resources and HTTP tests.
 */
export interface McpTestSession {
  readonly core: Core;
  readonly client: Client;
  /** The roots the client answers roots/list with; change them, then call client.sendRootsListChanged(). */
  readonly roots: Root[];
}

export interface McpTestSessionOptions {
  readonly home: string;
  /** Given: the server is started as with --workspace. */
  readonly workspace?: string;
  /** Given: the client declares the roots capability and answers with these. */
  readonly roots?: Root[];
}

export async function startMcpTestSession(options: McpTestSessionOptions): Promise<McpTestSession> {
  const logger = createStderrLogger('test', () => undefined);
  const core = await createTestCore({
    home: options.home,
    workspace: options.workspace,
    logger,
    approvalMode: 'refuse',
  });
  const sessions = createMcpSessions({
    core,
    version: '0.0.0-test',
    conversationId: 'mcp',
    fixedWorkspace: options.workspace !== undefined,
    logger,
  });
  const server = sessions.create();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const roots = options.roots ?? [];
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities: options.roots === undefined ? {} : { roots: { listChanged: true } } },
  );
  if (options.roots !== undefined) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
  await client.connect(clientSide);
  return { core, client, roots };
}
