import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createStderrLogger } from './platform/logging/logger';
import { startBrowserServer } from './front-doors/server/browser-server';
import { coreFlags, createCommandLineCore, runCommandLine } from './front-doors/command-line';

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

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The server stops taking calls first: a call arriving while the core shuts down could otherwise
    // reach a store that is closing (and, before it refused late writes, put an incognito chat on disk).
    void server
      .close()
      .then(() => core.dispose(`Familiar stopped (${signal}).`))
      .then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

runCommandLine(main, 'Familiar could not start browser mode');
