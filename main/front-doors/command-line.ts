import { messageOf } from '../../shared/errors';
import { resolve } from 'node:path';
import { createCore } from '../core/create-core';
import type { Core, CoreOptions } from '../core/create-core';
import { familiarVersion } from '../core/version';
import { defaultFamiliarHome } from '../platform/storage/paths';

/**
 * What the two command-line front doors (browser mode: main/serve.ts, MCP mode: main/mcp.ts) share:
 * the flags that say where the core keeps its data and works, the core they make of them, and how
 * a failure to start is reported. The desktop app starts elsewhere (front-doors/electron).
 */

/** parseArgs options for --workspace DIR and --home DIR. */
export const coreFlags = {
  workspace: { type: 'string' },
  home: { type: 'string' },
} as const;

export interface CoreFlagValues {
  readonly workspace?: string | undefined;
  readonly home?: string | undefined;
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
    mode: 'browser',
    version: familiarVersion,
    ...options,
  });
}

/** Runs an entry point's main; a failure to start is one line on stderr and exit code 1. */
export function runCommandLine(main: () => Promise<void>, failure: string): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${failure}: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
