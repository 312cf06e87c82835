import { z } from 'zod';
import { mcpCatalogSchema } from '../mcp-attachments';
import { mcpServerConfigSchema, mcpServerStatusSchema, mcpWorkspaceOfferSchema } from '../mcp-servers';
import { defineCall } from './define';

/**
 * The user's MCP servers as Settings shows them: each one's status line, and what the open
 * workspace's `.mcp.json` offers (null: it has none).
 */
export const mcpServersStateSchema = z.object({
  servers: z.array(mcpServerStatusSchema),
  offered: mcpWorkspaceOfferSchema.nullable().default(null),
});

export const mcpServerCalls = {
  /**
   * What the ready servers offer a message, read from them now: resources and resource templates for
   * the composer's `@` menu, prompts for its `/` menu. A server that fails to answer is named in errors.
   */
  'mcpServers.catalog': defineCall(z.object({}).strict(), mcpCatalogSchema),
  'mcpServers.list': defineCall(z.object({}).strict(), mcpServersStateSchema),
  /** Stops the server and starts it again now (its crash count starts over); answers the new list. */
  'mcpServers.restart': defineCall(z.object({ id: z.string().min(1).max(60) }).strict(), mcpServersStateSchema),
  /**
   * Sign in to a Streamable HTTP server that needs OAuth: discovery and client registration run, and
   * the authorization URL comes back for the page to open in the system browser after the user
   * confirms its host (null: the saved sign-in still worked). The browser returns to a loopback
   * listener in main; the server then starts again with its tokens.
   */
  'mcpServers.signIn': defineCall(
    z.object({ id: z.string().min(1).max(60) }).strict(),
    z.object({ authorizationUrl: z.url({ protocol: /^https?$/ }).nullable() }),
  ),
  /**
   * The user's answer to the open workspace's `.mcp.json` as it is now (its hash): allowed, its
   * servers start for this workspace; ignored, they are not offered again until the file changes.
   * A hash that is no longer the file's is refused (the file changed: it is asked about again).
   */
  'mcpServers.decideOffer': defineCall(
    z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), decision: z.enum(['allowed', 'ignored']) }).strict(),
    mcpServersStateSchema,
  ),
  /**
   * Another host's JSON (Claude Desktop / Cursor `mcpServers`, VS Code `servers`), pasted or read
   * from a file: the servers are added to settings (an id already taken gets a suffix), granting
   * nothing beyond the sandbox's defaults. Answers what was added and what was skipped, and why.
   */
  'mcpServers.import': defineCall(
    z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
    z.object({
      added: z.array(mcpServerConfigSchema),
      skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
    }),
  ),
};

export const mcpServerEvents = {
  /** A server started, became ready, failed, restarted, or its tools changed. */
  'mcpServers.changed': mcpServersStateSchema,
};
