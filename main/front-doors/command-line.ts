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
  options: Pick<CoreOptions, 'logger' | 'approvalMode'>,
): Promise<Core> {
  return createCore({
    home: resolve(flags.home ?? defaultFamiliarHome()),
    workspace: flags.workspace === undefined ? undefined : resolve(flags.workspace),
    userSkillsDir: flags['user-skills'] === undefined ? undefined : resolve(flags['user-skills']),
    mode: 'browser',
    version: familiarVersion,
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

/** Runs an entry point's main; a failure to start is one line on stderr and exit code 1. */
export function runCommandLine(main: () => Promise<void>, failure: string): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${failure}: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
