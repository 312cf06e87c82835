import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest, ElicitResult, JSONRPCMessage, Root } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import type { Core } from '../core/create-core';
import { createStderrLogger } from '../platform/logging/logger';
import { createMcpSessions } from '../front-doors/mcp/mcp-session';
import type { ApprovalMode } from '../tool-calls/ask';
import { createTestCore } from './test-core';

/**
 * The in-process MCP tests' setup: a core on temp folders and the official SDK client linked in
 * memory to a session server, built as main/mcp.ts builds it (tools, roots, resources). Shared by
 * the calls, server, roots and resources tests; mcp-process-kit.ts runs the real process instead.
 */
export interface McpTestSession {
  readonly core: Core;
  readonly client: Client;
  /** The roots the client answers roots/list with; change them, then call client.sendRootsListChanged(). */
  readonly roots: Root[];
  /** Everything the server sent, as the client's wire carried it. */
  readonly sent: JSONRPCMessage[];
  /** The questions the server asked the client's user (elicitation/create), in order. */
  readonly asked: ElicitRequest[];
}

export interface McpTestSessionOptions {
  readonly home: string;
  /** Given: the server is started as with --workspace. */
  readonly workspace?: string;
  /** Given: the client declares the roots capability and answers with these. */
  readonly roots?: Root[];
  /** What the policy's questions get without a person: refuse (the default) or approve-all (--approve all). */
  readonly approvalMode?: ApprovalMode;
  /** Given: the client declares elicitation and its user answers the server's questions so. */
  readonly elicit?: ((request: ElicitRequest, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>) | undefined;
}

/** Starts sessions for the tests of one file; each test's clients and cores are closed after it. */
export function useMcpTestSessions(): (options: McpTestSessionOptions) => Promise<McpTestSession> {
  const open: McpTestSession[] = [];
  afterEach(async () => {
    for (const { client, core } of open.splice(0)) {
      await client.close();
      await core.dispose('test over');
    }
  });
  return async (options) => {
    const session = await startMcpTestSession(options);
    open.push(session);
    return session;
  };
}

async function startMcpTestSession(options: McpTestSessionOptions): Promise<McpTestSession> {
  const logger = createStderrLogger('test', () => undefined);
  const core = await createTestCore({
    home: options.home,
    workspace: options.workspace,
    logger,
    approvalMode: options.approvalMode ?? 'refuse',
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
  const sent: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, sendOptions) => {
    sent.push(message);
    return send(message, sendOptions);
  };
  await server.connect(serverSide);
  const roots = options.roots ?? [];
  const { elicit } = options;
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    {
      capabilities: {
        ...(options.roots === undefined ? {} : { roots: { listChanged: true } }),
        ...(elicit === undefined ? {} : { elicitation: {} }),
      },
    },
  );
  if (options.roots !== undefined) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
  const asked: ElicitRequest[] = [];
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      asked.push(request);
      return elicit(request, extra.signal);
    });
  }
  await client.connect(clientSide);
  return { core, client, roots, sent, asked };
}
