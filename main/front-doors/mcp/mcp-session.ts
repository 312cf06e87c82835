import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Core } from '../../core/create-core';
import type { Logger } from '../../platform/logging/logger';
import { createMcpServer } from './mcp-server';
import { createWorkspaceBinding, requireWorkspace } from './mcp-roots';
import type { WorkspaceBinding } from './mcp-roots';
import { serveResources } from './mcp-resources';

export interface McpSessionsOptions {
  readonly core: Pick<
    Core,
    'assistant' | 'workspace' | 'settings' | 'conversations' | 'dispatch' | 'events' | 'readySearch'
  >;
  readonly version: string;
  /** Every MCP call belongs to this conversation: rate limits, audit and read tracking use it. */
  readonly conversationId: string;
  /** Started with --workspace: client roots are ignored. */
  readonly fixedWorkspace: boolean;
  readonly logger: Logger;
}

export interface McpSessions {
  readonly binding: WorkspaceBinding;
  /** A Server for one client connection: stdio has one, Streamable HTTP one per session. */
  create(): Server;
}

/**
 * Everything Familiar offers an MCP client, on one core: the tools (mcp-server.ts), the workspace
 * from --workspace or the client's roots (mcp-roots.ts) and the resources (mcp-resources.ts). The
 * workspace binding is shared: one core has one workspace, whichever session's roots set it last.
 */
export function createMcpSessions(options: McpSessionsOptions): McpSessions {
  const { core } = options;
  const binding = createWorkspaceBinding({
    workspace: core.workspace,
    fixed: options.fixedWorkspace,
    logger: options.logger,
  });
  const executor = requireWorkspace(core.assistant.toolCalls, binding);
  return {
    binding,
    create() {
      const server = createMcpServer({ executor, version: options.version, conversationId: options.conversationId });
      binding.attach(server);
      // Once the client has its answer to initialize: ripgrep's sandbox for its first search (made as
      // the server started, it held that answer up).
      const initialized = server.oninitialized;
      server.oninitialized = () => {
        initialized?.();
        setImmediate(() => core.readySearch());
      };
      serveResources({
        server,
        // Persona files live in the Familiar home: readable before any workspace is bound.
        executor: core.assistant.toolCalls,
        binding,
        conversationId: options.conversationId,
        workspace: core.workspace,
        settings: core.settings,
        policy: () => core.assistant.policy.get(),
        isIncognito: (id) => core.conversations.isIncognito(id),
        dispatch: core.dispatch,
        events: core.events,
        logger: options.logger,
      });
      return server;
    },
  };
}
