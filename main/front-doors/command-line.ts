import { messageOf } from '../../shared/errors';
import { resolve } from 'node:path';
import { createCore } from '../core/create-core';
import type { Core, CoreOptions } from '../core/create-core';
import type { Logger } from '../platform/logging/logger';
import { familiarVersion } from '../core/version';
import { defaultFamiliarHome } from '../platform/storage/paths';

/**
 * What the two command-line front doors (browser mode: main/serve.ts, MCP mode: main/mcp.ts) share:
 * the flags that say where the core keeps its data and works, the core they make of them, and how
 * a failure to start is reported. The desktop app starts elsewhere (front-doors/electron).
 */

/** parseArgs options for --workspace DIR, --home DIR and --user-skills DIR (instead of ~/.agents/skills). */
export const coreFlags = {
  workspace: { type: 'string' },
  home: { type: 'string' },
  'user-skills': { type: 'string' },
} as const;

export interface CoreFlagValues {
  readonly workspace?: string | undefined;
  readonly home?: string | undefined;
  readonly 'user-skills'?: string | undefined;
}

/**
 * The core on the given flags, both resolved against the current folder: the home defaults to the
 * user's Familiar home, the workspace to the one inside it. Both front doors run the browser-mode core.
 */
export function createCommandLineCore(
  flags: CoreFlagValues,
  options: Pick<CoreOptions, 'logger' | 'approvalMode' | 'workers' | 'collectAfterStart'>,
): Promise<Core> {
  return createCore({
    home: resolve(flags.home ?? defaultFamiliarHome()),
    workspace: flags.workspace === undefined ? undefined : resolve(flags.workspace),
    userSkillsDir: flags['user-skills'] === undefined ? undefined : resolve(flags['user-skills']),
    mode: 'browser',
    version: familiarVersion,
    // A process that serves for a long time: its first call does not pay the start's collection.
    collectAfterStart: true,
    ...options,
  });
}

/**
 * Ends the core for an exit that must come soon (a client that closed stdin kills a server that
 * lingers): index builds stop, what is already due is saved, pools and watchers close. Answers
 * 'late' when that was not over by the deadline (it goes on meanwhile); a failure is logged.
 */
export async function disposeWithin(
  core: Pick<Core, 'dispose'>,
  reason: string,
  deadlineMs: number,
  logger: Pick<Logger, 'warn'>,
): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
  const done = core.dispose(reason).then(
    () => 'done' as const,
    (error: unknown) => {
      logger.warn(`stopping failed: ${messageOf(error)}`);
      return 'done' as const;
    },
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops a front door once, whoever asks first (SIGINT, SIGTERM, or what the caller wires, such as
 * stdin closing): the door stops taking calls first (a call arriving while the core shuts down could
 * reach a store that is closing), then the core ends within the deadline. Past it the process is
 * killed: process.exit would first wait for every worker thread to end (node joins them), which an
 * index thread at its lowest priority can take seconds to do on a busy machine; a kill does not.
 */
export function stopOnce(
  door: { close(): Promise<void> },
  core: Pick<Core, 'dispose'>,
  options: { readonly name: string; readonly deadlineMs: number; readonly logger: Pick<Logger, 'warn'> },
): (why: string) => void {
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    void door
      .close()
      .catch(() => undefined)
      .then(() => disposeWithin(core, `${options.name} stopped (${why}).`, options.deadlineMs, options.logger))
      .then((outcome) => {
        if (outcome === 'done') process.exit(0);
        options.logger.warn(
          `stopping took over ${options.deadlineMs} ms (a save or a worker thread still busy): killed`,
        );
        process.kill(process.pid, 'SIGKILL');
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return stop;
}

/** Runs an entry point's main; a failure to start is one line on stderr and exit code 1. */
export function runCommandLine(main: () => Promise<void>, failure: string): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${failure}: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
