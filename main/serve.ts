import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { keepHeapNearLive, startHeapFlags } from './platform/heap/heap-release';
import { relaunchUnderMallocTunables } from './platform/processes/malloc-tunables';

// Before the app's modules load: glibc's allocator tuned for a process that runs all day (the
// process is replaced once, malloc-tunables.ts, and started with V8's young generation sized), and
// V8's heap kept near what is live, as the desktop app does (heap-release.ts).
relaunchUnderMallocTunables(startHeapFlags());
keepHeapNearLive();

// The file threads start while the app's modules load, as familiar-mcp's do (mcp.ts); the core owns them.
const { createFsWorkerPool } = await import('./platform/search-engines/fs-worker-pool');
const workers = createFsWorkerPool();
workers.warm();

/** Browser mode: the same core as the desktop app, its renderer served on loopback. */
async function main(): Promise<void> {
  // Loaded only now (see above); the entry itself imports nothing of the app.
  const [{ createStderrLogger }, { startBrowserServer }, { coreFlags, createCommandLineCore, stopOnce }] =
    await Promise.all([
      import('./platform/logging/logger'),
      import('./front-doors/server/browser-server'),
      import('./front-doors/command-line'),
    ]);
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env['FAMILIAR_PORT'] ?? '0' },
      ...coreFlags,
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a number from 0 to 65535, got ${values.port}`);
  }
  const logger = createStderrLogger('serve');
  const core = await createCommandLineCore(values, { logger, workers });
  const server = await startBrowserServer({
    dispatch: core.dispatch,
    events: core.events,
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    port,
  });
  // Scripts and tests read this exact line to find the app.
  process.stdout.write(`Familiar is running in browser mode: ${server.url}\n`);

  // Generous: a browser-mode core may be saving a long conversation; past this it is killed.
  stopOnce(server, core, { name: 'Familiar', deadlineMs: 5000, logger });
}

const { runCommandLine } = await import('./front-doors/command-line');
runCommandLine(main, 'Familiar could not start browser mode');
