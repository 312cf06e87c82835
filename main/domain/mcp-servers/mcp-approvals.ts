import type { McpAlwaysAllowed, McpServerConfig } from '../../../shared/mcp-servers';

/** Which server tool a call is, as the approvals see it. */
export interface McpToolOrigin {
  readonly server: string;
  readonly tool: string;
  /** The server says the tool only reads (annotations.readOnlyHint): a hint, trusted only by the user's switch. */
  readonly readOnly: boolean;
}

/**
 * The user's answers about server tools (issue 29): every tool asks by default; "for this
 * conversation" holds in memory, "always for this tool of this server" is kept in settings (listed
 * and revocable there), and a server's one switch lets its read-only tools run without asking.
 * None of it holds while the server runs unconfined.
 */
export interface McpApprovals {
  allowed(conversationId: string, origin: McpToolOrigin): boolean;
  allowForConversation(conversationId: string, origin: McpToolOrigin): void;
  allowAlways(origin: McpToolOrigin): Promise<void>;
}

export interface McpApprovalsOptions {
  readonly servers: () => readonly McpServerConfig[];
  readonly alwaysAllowed: () => readonly McpAlwaysAllowed[];
  readonly saveAlwaysAllowed: (entries: McpAlwaysAllowed[]) => Promise<void>;
  /**
   * Whether this server's process runs without the OS sandbox (bubblewrap missing...): then, as
   * with an unconfined command, every call asks, whatever was allowed before.
   */
  readonly runsUnconfined?: (server: string) => boolean;
}

const keyOf = (origin: McpToolOrigin) => `${origin.server}\0${origin.tool}`;

export function createMcpApprovals(options: McpApprovalsOptions): McpApprovals {
  const byConversation = new Map<string, Set<string>>();
  return {
    allowed(conversationId, origin) {
      if (options.runsUnconfined?.(origin.server) === true) return false;
      if (options.alwaysAllowed().some((entry) => entry.server === origin.server && entry.tool === origin.tool)) {
        return true;
      }
      const server = options.servers().find((config) => config.id === origin.server);
      if (origin.readOnly && server?.allowReadOnly === true) return true;
      return byConversation.get(conversationId)?.has(keyOf(origin)) === true;
    },
    allowForConversation(conversationId, origin) {
      byConversation.set(conversationId, (byConversation.get(conversationId) ?? new Set()).add(keyOf(origin)));
    },
    async allowAlways(origin) {
      const kept = options.alwaysAllowed();
      if (kept.some((entry) => entry.server === origin.server && entry.tool === origin.tool)) return;
      await options.saveAlwaysAllowed([...kept, { server: origin.server, tool: origin.tool }]);
    },
  };
}
