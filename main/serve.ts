import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createStderrLogger } from './platform/logging/logger';
import { startBrowserServer } from './front-doors/server/browser-server';
import { coreFlags, createCommandLineCore, runCommandLine, stopOnce } from './front-doors/command-line';
import { keepHeapNearLive } from './platform/heap/heap-release';

// Browser mode keeps V8's heap near what is live, as the desktop app does (heap-release.ts).
keepHeapNearLive();

/** Browser mode: the same core as the desktop app, its renderer served on loopback. */
async function main(): Promise<void> {
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
  const core = await createCommandLineCore(values, { logger });
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

runCommandLine(main, 'Familiar could not start browser mode');
