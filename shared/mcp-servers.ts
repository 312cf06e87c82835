import { z } from 'zod';

/**
 * The user's own MCP servers (issue 29): Familiar is their host. A server is started (stdio) or
 * reached (Streamable HTTP) while enabled; its tools join the assistant's as `<id>__<tool>`.
 */
export const mcpServerIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, dash, underscore')
  .refine((id) => !id.includes('__'), 'no double underscore (it separates server and tool)')
  .max(40);

/** Hosts a confined stdio server may reach through Familiar's proxy: `host` or `host:port`. */
export const mcpHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/)
  .max(260);

/**
 * What settings.json keeps in place of an environment or header value: the value itself is in the
 * secret store (main/domain/mcp-servers/mcp-secrets.ts). The UI shows such a value masked; sending
 * it back unchanged keeps the stored value, sending anything else replaces it.
 */
export const MCP_SECRET_KEPT = '<secret>';

const common = {
  id: mcpServerIdSchema,
  enabled: z.boolean().default(true),
  /** readOnlyHint tools of this server run without asking (one switch per server). */
  allowReadOnly: z.boolean().default(false),
};

export const mcpStdioServerSchema = z.object({
  ...common,
  transport: z.literal('stdio'),
  /** A program on PATH or an absolute path. */
  command: z.string().trim().min(1).max(1000),
  args: z.array(z.string().max(4000)).max(100).default([]),
  /** Set for the server only (names checked like environment names). */
  env: z
    .record(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(200),
      z.string().max(10_000),
    )
    .default({}),
  /** Its working folder (absolute); absent: the open workspace. */
  cwd: z.string().trim().min(1).max(2000).optional(),
  /** What the sandbox grants beyond the defaults: writing the workspace, and the hosts it may reach. */
  grants: z
    .object({ writeWorkspace: z.boolean().default(false), hosts: z.array(mcpHostSchema).max(100).default([]) })
    .default({ writeWorkspace: false, hosts: [] }),
});

export const mcpHttpServerSchema = z.object({
  ...common,
  transport: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }).max(2000),
  headers: z.record(z.string().trim().min(1).max(200), z.string().max(10_000)).default({}),
});

export const mcpServerConfigSchema = z.discriminatedUnion('transport', [mcpStdioServerSchema, mcpHttpServerSchema]);
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
export type McpStdioServerConfig = z.infer<typeof mcpStdioServerSchema>;

/** "Always allow" answers: this tool of this server runs without asking. */
export const mcpAlwaysAllowedSchema = z.object({ server: mcpServerIdSchema, tool: z.string().min(1).max(200) });
export type McpAlwaysAllowed = z.infer<typeof mcpAlwaysAllowedSchema>;

export const mcpServersListSchema = z
  .array(mcpServerConfigSchema)
  .max(50)
  .refine((servers) => new Set(servers.map((server) => server.id)).size === servers.length, 'server ids must differ');

/**
 * The user's answer to a workspace's own `.mcp.json`, per workspace and per content: a changed
 * file (another hash) is asked about again. Nothing of that file runs without 'allowed'.
 */
export const mcpWorkspaceDecisionSchema = z.object({
  workspace: z.string().min(1).max(4000),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  decision: z.enum(['allowed', 'ignored']),
});
export type McpWorkspaceDecision = z.infer<typeof mcpWorkspaceDecisionSchema>;
export const mcpWorkspaceDecisionsSchema = z.array(mcpWorkspaceDecisionSchema).max(500);

/** The most tokens a server's sampling request may make the model write (its own wish is capped by it). */
export const mcpSamplingMaxTokensSchema = z.number().int().min(16).max(32_000);
export const DEFAULT_SAMPLING_MAX_TOKENS = 1024;

export const mcpSettingsSchema = z.object({
  servers: mcpServersListSchema.default([]),
  alwaysAllowed: z.array(mcpAlwaysAllowedSchema).max(2000).default([]),
  workspaceDecisions: mcpWorkspaceDecisionsSchema.default([]),
  samplingMaxTokens: mcpSamplingMaxTokensSchema.default(DEFAULT_SAMPLING_MAX_TOKENS),
});
export const defaultMcpSettings = (): z.infer<typeof mcpSettingsSchema> => ({
  servers: [],
  alwaysAllowed: [],
  workspaceDecisions: [],
  samplingMaxTokens: DEFAULT_SAMPLING_MAX_TOKENS,
});

/** What the open workspace's `.mcp.json` offers, and what the user said of this content. */
export const mcpWorkspaceOfferSchema = z.object({
  file: z.string(),
  hash: z.string(),
  /** As they would run (ids made unique beside the user's own); environment and header values masked. */
  servers: z.array(mcpServerConfigSchema),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  decision: z.enum(['pending', 'allowed', 'ignored']),
  /** pending because the file changed since the user answered. */
  changed: z.boolean(),
});
export type McpWorkspaceOffer = z.infer<typeof mcpWorkspaceOfferSchema>;

/** What the Settings line says of a server. */
export const mcpServerStatusSchema = z.object({
  id: z.string(),
  /** needs-sign-in: a Streamable HTTP server asks for OAuth and nothing saved lets it in (Sign in). */
  state: z.enum(['disabled', 'starting', 'ready', 'failed', 'restarting', 'needs-sign-in']),
  tools: z.number().int().nonnegative(),
  /** Tools left out (an invalid input schema), each with why. */
  skipped: z.array(z.object({ tool: z.string(), reason: z.string() })).default([]),
  /** failed / restarting: what went wrong, and the last lines the server wrote to stderr. */
  error: z.string().optional(),
  stderr: z.array(z.string()).default([]),
  /** stdio: inside the OS sandbox; what it was granted. */
  confined: z.boolean().optional(),
  grants: z.array(z.string()).default([]),
  /** Hosts it reached for and was refused (allow them in its grants). */
  refusedHosts: z.array(z.string()).default([]),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

const looseServer = z.object({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  type: z.string().optional(),
  disabled: z.boolean().optional(),
});

export type McpImport =
  | { readonly ok: true; readonly servers: McpServerConfig[]; readonly skipped: { name: string; reason: string }[] }
  | { readonly ok: false; readonly message: string };

/** A name from another host's file as a server id here: letters, digits, dash, underscore. */
const idFrom = (name: string): string =>
  name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[-_]+/, '')
    .slice(0, 40) || 'server';

/**
 * Claude Desktop's and Cursor's `{"mcpServers": {...}}`, VS Code's `mcp.json` (`{"servers": {...}}`)
 * or a bare `{name: {command...}}` map, as Familiar's servers. Imported servers keep the sandbox's
 * defaults: nothing is granted by importing.
 */
export function importMcpServers(text: string): McpImport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: 'Expected an object with "mcpServers" or "servers".' };
  }
  const record = parsed as Record<string, unknown>;
  const map = record['mcpServers'] ?? record['servers'] ?? record;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    return { ok: false, message: '"mcpServers" (or "servers") must be an object of named servers.' };
  }
  const servers: McpServerConfig[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const [name, raw] of Object.entries(map as Record<string, unknown>)) {
    const loose = looseServer.safeParse(raw);
    if (!loose.success) {
      skipped.push({ name, reason: 'not a server entry' });
      continue;
    }
    const entry = loose.data;
    let id = idFrom(name);
    for (let n = 2; servers.some((server) => server.id === id); n++) id = `${idFrom(name).slice(0, 36)}-${n}`;
    const base = { id, enabled: entry.disabled !== true };
    const candidate =
      entry.command !== undefined
        ? { ...base, transport: 'stdio', command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd }
        : entry.url !== undefined
          ? { ...base, transport: 'http', url: entry.url, headers: entry.headers }
          : undefined;
    if (candidate === undefined) {
      skipped.push({ name, reason: 'neither "command" nor "url"' });
      continue;
    }
    if (entry.type === 'sse') {
      skipped.push({ name, reason: 'the old SSE transport is not supported; use Streamable HTTP' });
      continue;
    }
    const checked = mcpServerConfigSchema.safeParse(candidate);
    if (checked.success) servers.push(checked.data);
    else skipped.push({ name, reason: checked.error.issues.map((issue) => issue.message).join('; ') });
  }
  return { ok: true, servers, skipped };
}
