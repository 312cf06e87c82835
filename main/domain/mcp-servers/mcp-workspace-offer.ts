import { createHash } from 'node:crypto';
import { importMcpServers, MCP_SECRET_KEPT } from '../../../shared/mcp-servers';
import type { McpServerConfig, McpWorkspaceDecision, McpWorkspaceOffer } from '../../../shared/mcp-servers';

export const WORKSPACE_MCP_FILE = '.mcp.json';

/** A workspace's `.mcp.json` as read: its servers as they would run, and its hash. */
export interface WorkspaceServers {
  readonly hash: string;
  readonly servers: readonly McpServerConfig[];
  readonly skipped: readonly { name: string; reason: string }[];
}

/**
 * Claude Code's project file (`{"mcpServers": {...}}`) as servers, each id made unique beside the
 * user's own (a repository cannot shadow a server the user added). A file that is not JSON offers
 * nothing (its servers are listed as skipped).
 */
export function readWorkspaceServers(text: string, takenIds: readonly string[]): WorkspaceServers {
  const hash = createHash('sha256').update(text).digest('hex');
  const imported = importMcpServers(text);
  if (!imported.ok) return { hash, servers: [], skipped: [{ name: WORKSPACE_MCP_FILE, reason: imported.message }] };
  const taken = new Set(takenIds);
  const servers = imported.servers.map((server) => {
    let id = server.id;
    for (let n = 2; taken.has(id); n++) id = `${server.id.slice(0, 36)}-${n}`;
    taken.add(id);
    return { ...server, id };
  });
  return { hash, servers, skipped: imported.skipped };
}

/** What the user said of this workspace's file as it is now: pending until they answer this content. */
export function offerOf(
  found: WorkspaceServers,
  workspace: string,
  decisions: readonly McpWorkspaceDecision[],
): McpWorkspaceOffer {
  const answered = decisions.find((entry) => entry.workspace === workspace);
  const current = answered !== undefined && answered.hash === found.hash ? answered.decision : undefined;
  const mask = (values: Record<string, string>) =>
    Object.fromEntries(Object.keys(values).map((key) => [key, MCP_SECRET_KEPT]));
  return {
    file: WORKSPACE_MCP_FILE,
    hash: found.hash,
    servers: found.servers.map((server) =>
      server.transport === 'stdio'
        ? { ...server, env: mask(server.env) }
        : { ...server, headers: mask(server.headers) },
    ),
    skipped: [...found.skipped],
    decision: current ?? 'pending',
    changed: answered !== undefined && current === undefined,
  };
}

/** The decisions with this workspace's answer replaced. */
export const decided = (
  decisions: readonly McpWorkspaceDecision[],
  entry: McpWorkspaceDecision,
): McpWorkspaceDecision[] => [...decisions.filter((kept) => kept.workspace !== entry.workspace), entry];
