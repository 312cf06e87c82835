import { parseArgs } from 'node:util';
import { collectOrdinary, keepHeapNearLive, startHeapFlags } from './platform/heap/heap-release';
import { relaunchUnderMallocTunables } from './platform/processes/malloc-tunables';

// Before the app's modules load: glibc's allocator tuned for a process that runs all day (the
// process is replaced once, malloc-tunables.ts, and started with V8's young generation sized), and
// V8's heap kept near what is live (heap-release.ts).
relaunchUnderMallocTunables(startHeapFlags());
keepHeapNearLive();

// The file threads start now, while the app's modules load (~0.4 s, on one core): a client's first
// search, which may come the moment the handshake is over, finds them ready instead of sharing the
// cores with their start (ripgrep ran 25-40 ms longer beside it on two cores). The core owns them.
const { createFsWorkerPool } = await import('./platform/search-engines/fs-worker-pool');
const workers = createFsWorkerPool();
workers.warm();

const usage = `Usage: familiar-mcp [--workspace DIR] [--home DIR] [--user-skills DIR] [--approve all] [--http [PORT]]

Serves Familiar's sandboxed workspace tools over MCP on stdio. Without --workspace, the first
file:// folder among the client's roots is the workspace. Calls the permission policy would
ask a person about answer approval_required, unless --approve all is given (trusted automation only).
--http serves Streamable HTTP on 127.0.0.1 instead (no PORT: a free one), at /mcp, behind a bearer
token: FAMILIAR_MCP_TOKEN if set, else a random one; the URL and the token are printed on stderr.`;

/**
 * How long ending the core may take once stdin closes: clients wait about a second before they
 * kill a server (the SDK's client 2 s), and the close reaches a busy server a little late.
 */
const STOP_DEADLINE_MS = 600;

/** MCP mode: stdout carries the protocol, so everything else goes to stderr. */
async function main(): Promise<void> {
  // Loaded only now (see above); the entry itself imports nothing of the app.
  const [
    { StdioServerTransport },
    { createStderrLogger },
    { createMcpSessions },
    mcpHttp,
    commandLine,
    { familiarVersion },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('./platform/logging/logger'),
    import('./front-doors/mcp/mcp-session'),
    import('./front-doors/mcp/mcp-http'),
    import('./front-doors/command-line'),
    import('./core/version'),
  ]);
  const { parseHttpPort, startMcpHttpServer, withHttpPortDefault } = mcpHttp;
  const { coreFlags, createCommandLineCore, stopOnce } = commandLine;
  const { values } = parseArgs({
    args: withHttpPortDefault(process.argv.slice(2)),
    options: {
      http: { type: 'string' },
      ...coreFlags,
      approve: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stderr.write(`${usage}\n`);
    await workers.dispose();
    return;
  }
  if (values.approve !== undefined && values.approve !== 'all') {
    throw new Error(`--approve takes only "all", got "${values.approve}"\n${usage}`);
  }
  const logger = createStderrLogger('mcp');
  const core = await createCommandLineCore(values, {
    logger,
    approvalMode: values.approve === 'all' ? 'approve-all' : 'refuse',
    workers,
    // Collected below, as the start ends, rather than at its first quiet moment.
    collectAfterStart: false,
  });
  const sessions = createMcpSessions({
    core,
    version: familiarVersion,
    conversationId: 'mcp',
    // Without --workspace the client's roots choose the folder (mcp-roots.ts).
    fixedWorkspace: values.workspace !== undefined,
    logger,
  });
  // The start ends with one full collection (30-40 ms), before the server answers anything: the heap
  // its modules and core left (just under V8's first limit) then sets that limit from what is live.
  // A client's first call, which may come the moment the handshake is over, would otherwise pay that
  // collection, and the young generation's scavenge of the start's survivors: the first search of a
  // rare word in a new server took 425-434 ms without, 371-376 with (rg ~300 ms).
  collectOrdinary();
  if (values.http !== undefined) {
    const http = await startMcpHttpServer({
      port: parseHttpPort(values.http),
      token: process.env['FAMILIAR_MCP_TOKEN'] || undefined,
      createSession: () => sessions.create(),
      logger,
    });
    process.stderr.write(`Familiar MCP over Streamable HTTP: ${http.url}\nAuthorization: Bearer ${http.token}\n`);
    const stopHttp = () => void http.close().finally(() => process.exit(0));
    process.on('SIGINT', stopHttp);
    process.on('SIGTERM', stopHttp);
    return;
  }
  const server = sessions.create();
  await server.connect(new StdioServerTransport());
  // The client closing stdin is how stdio servers are told to go (the SDK's transport does not
  // listen for it): stop taking calls, then end the core, which stops the index builds and ends the
  // worker threads and watchers that kept the process alive (while a build ran; the semantic
  // index's watcher for good).
  const stop = stopOnce(server, core, { name: 'familiar-mcp', deadlineMs: STOP_DEADLINE_MS, logger });
  process.stdin.once('end', () => stop('stdin closed'));
  process.stdin.once('close', () => stop('stdin closed'));
}

const { runCommandLine } = await import('./front-doors/command-line');
runCommandLine(main, 'familiar-mcp could not start');
