/**
 * The client under test for the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * issue 29): Familiar's own host connection (main/domain/mcp-servers/mcp-connection.ts), exactly as
 * the manager opens a Streamable HTTP server from Settings, against the scenario's server. The CLI
 * runs `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO set; this connects, reads the tools as
 * the host does, calls each one as the model would (arguments from its schema's defaults, else a
 * plain value of its type), then closes. It plays the user too: a server's form is answered as the
 * dialog pre-fills it (mcp-server-questions.ts, shared/elicitation-answer.ts) and accepted unchanged;
 * a server that wants OAuth gets "Sign in" (mcp-sign-in.ts), where the browser is a GET of the
 * authorization URL on loopback whose redirect lands on Familiar's callback.
 * Run by scripts/mcp-conformance/conformance.test.ts.
 */
import { elicitationContent } from '../../shared/elicitation-answer';
import { mcpServerConfigSchema } from '../../shared/mcp-servers';
import type { McpServerConfig } from '../../shared/mcp-servers';
import type { SecretStore } from '../../main/platform/secrets/secret-store';
import { needsSignIn, openConnection } from '../../main/domain/mcp-servers/mcp-connection';
import type { ElicitHandler, McpConnection } from '../../main/domain/mcp-servers/mcp-connection';
import { elicitationQuestion, elicitResult } from '../../main/domain/mcp-servers/mcp-server-questions';
import { createMcpSignIn } from '../../main/domain/mcp-servers/mcp-sign-in';

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

/** The secret store in memory: what Familiar would keep in secrets.json for this one run. */
function memorySecrets(): SecretStore {
  const held = new Map<string, string>();
  return {
    keyStorage: 'plaintext-file',
    get: (name) => held.get(name),
    has: (name) => held.has(name),
    set: (name, value) => Promise.resolve(void (value === null ? held.delete(name) : held.set(name, value))),
    values: () => [...held.values()],
    names: () => [...held.keys()] as ReturnType<SecretStore['names']>,
  };
}

/** The user reads the server's form, pre-filled as the dialog shows it, and sends it as it is. */
const acceptPrefilled: ElicitHandler = (params) => {
  const question = elicitationQuestion({ server: 'conformance' }, params);
  const elicitation = question.ok ? question.value.elicitation : undefined;
  if (elicitation === undefined || elicitation.mode === 'url') return Promise.resolve({ action: 'decline' });
  const { content, problems } = elicitationContent(elicitation.fields, {});
  // A required field left empty keeps Send disabled: the user can only decline.
  if (problems.length > 0) return Promise.resolve({ action: 'decline' });
  return Promise.resolve(
    elicitResult({ approved: true, allowForConversation: false, elicitationContent: content }, 'form'),
  );
};

async function main(): Promise<number> {
  const url = process.argv[2];
  if (url === undefined) {
    process.stderr.write('usage: client.ts <server-url>\n');
    return 2;
  }
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const config = mcpServerConfigSchema.parse({ id: 'conformance', transport: 'http', url });
  const secrets = memorySecrets();
  let signedIn: (failure?: string) => void = () => undefined;
  const signIn = createMcpSignIn({
    secrets,
    onSignedIn: () => signedIn(),
    onFailed: (_id, why) => signedIn(why),
  });
  /** Sign in: the authorization URL Familiar would open, fetched on loopback; its redirect lands on the callback. */
  const signInByBrowser = async (server: McpServerConfig) => {
    const done = new Promise<void>((resolve, reject) => {
      signedIn = (failure) => (failure === undefined ? resolve() : reject(new Error(failure)));
    });
    const started = await signIn.start(server);
    if (!started.ok) throw new Error(started.error.message);
    if (started.value.authorizationUrl === null) return;
    const page = await fetch(started.value.authorizationUrl);
    process.stderr.write(`browser: ${page.status} ${(await page.text()).slice(0, 200)}\n`);
    await done;
  };
  const open = () =>
    openConnection({
      config,
      startProcess: () => Promise.reject(new Error('not a stdio server')),
      workspaceRoot: () => process.cwd(),
      startTimeoutMs: 20_000,
      version: 'conformance',
      authProvider: signIn.provider(config.id),
      onElicit: acceptPrefilled,
      onLost: (why) => process.stderr.write(`lost: ${why}\n`),
      onToolsChanged: () => undefined,
      log: (message) => process.stderr.write(`${message}\n`),
    });
  /** Started as the manager starts it; 'needs sign-in' is answered as the user would: Sign in, then it starts again. */
  const start = async (): Promise<McpConnection> => {
    try {
      return await open();
    } catch (error) {
      if (!needsSignIn(error)) throw error;
      await signInByBrowser(config);
      return open();
    }
  };
  let connection = await start();
  try {
    const tools = connection.tools() as { name?: unknown; inputSchema?: Schema }[];
    process.stdout.write(`${scenario}: ${tools.length} tools\n`);
    for (const tool of tools) {
      if (typeof tool.name !== 'string') continue;
      const args = sample({ type: 'object', ...tool.inputSchema }) as Record<string, unknown>;
      const call = () =>
        connection.call(tool.name as string, args, { signal: new AbortController().signal, timeoutMs: 15_000 });
      try {
        let result;
        try {
          result = await call();
        } catch (error) {
          // The server wants more (step-up): the user signs in again and the call is made again, once.
          if (!needsSignIn(error)) throw error;
          await connection.close();
          await signInByBrowser(config);
          connection = await open();
          result = await call();
        }
        process.stdout.write(`${tool.name}: ${JSON.stringify(result.content).slice(0, 500)}\n`);
      } catch (error) {
        process.stdout.write(`${tool.name} failed: ${String(error)}\n`);
      }
    }
  } finally {
    await connection.close();
    await signIn.dispose();
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
