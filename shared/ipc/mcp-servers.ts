import { z } from 'zod';
import { mcpCatalogSchema } from '../mcp-attachments';
import { mcpServerConfigSchema, mcpServerStatusSchema } from '../mcp-servers';
import { defineCall } from './define';

/** The user's MCP servers as Settings shows them: each one's status line. */
export const mcpServersStateSchema = z.object({ servers: z.array(mcpServerStatusSchema) });

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
