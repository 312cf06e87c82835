/**
 * The client under test for the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * issue 29): Familiar's own host connection (main/domain/mcp-servers/mcp-connection.ts), exactly as
 * the manager opens a Streamable HTTP server from Settings, against the scenario's server. The CLI
 * runs `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO set; this connects, reads the tools as
 * the host does, calls each one as the model would (arguments from its schema's defaults, else a
 * plain value of its type), then closes. Run by scripts/mcp-conformance/conformance.test.ts.
 */
import { mcpServerConfigSchema } from '../../shared/mcp-servers';
import { openConnection } from '../../main/domain/mcp-servers/mcp-connection';

type Schema = { type?: unknown; default?: unknown; properties?: Record<string, Schema>; enum?: unknown[] };

/** A value the schema takes: its default, its first enum value, or a plain one of its type. */
function sample(schema: Schema | undefined): unknown {
  if (schema === undefined) return 'test';
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value)]));
    default:
      return 'test';
  }
}

async function main(): Promise<number> {
  const url = process.argv[2];
  if (url === undefined) {
    process.stderr.write('usage: client.ts <server-url>\n');
    return 2;
  }
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const config = mcpServerConfigSchema.parse({ id: 'conformance', transport: 'http', url });
  const connection = await openConnection({
    config,
    startProcess: () => Promise.reject(new Error('not a stdio server')),
    workspaceRoot: () => process.cwd(),
    startTimeoutMs: 20_000,
    version: 'conformance',
    onLost: (why) => process.stderr.write(`lost: ${why}\n`),
    onToolsChanged: () => undefined,
    log: (message) => process.stderr.write(`${message}\n`),
  });
  try {
    const tools = connection.tools() as { name?: unknown; inputSchema?: Schema }[];
    process.stdout.write(`${scenario}: ${tools.length} tools\n`);
    for (const tool of tools) {
      if (typeof tool.name !== 'string') continue;
      const args = sample({ type: 'object', ...tool.inputSchema }) as Record<string, unknown>;
      try {
        const result = await connection.call(tool.name, args, {
          signal: new AbortController().signal,
          timeoutMs: 15_000,
        });
        process.stdout.write(`${tool.name}: ${JSON.stringify(result.content).slice(0, 500)}\n`);
      } catch (error) {
        process.stdout.write(`${tool.name} failed: ${String(error)}\n`);
      }
    }
  } finally {
    await connection.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
