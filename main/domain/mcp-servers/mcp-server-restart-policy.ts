import type { McpServerManagerOptions } from './mcp-server-manager-options';
import type { RunningServer } from './mcp-server-status';

/** How a crashed server comes back: after each wait in turn; after the last, it is failed. */
export interface RestartPolicy {
  readonly backoffMs: readonly number[];
  readonly stableMs: number;
}

/** The policy the options ask for, with the defaults they document (1, 2, 4, 8, 16 s; 60 s). */
export const restartPolicy = (options: Pick<McpServerManagerOptions, 'backoffMs' | 'stableMs'>): RestartPolicy => ({
  backoffMs: options.backoffMs ?? [1000, 2000, 4000, 8000, 16000],
  stableMs: options.stableMs ?? 60_000,
});

/**
 * Counts one more crash of `running` and says how long to wait before starting it again, or
 * undefined when the waits are used up. A server that had been ready for `stableMs` starts over.
 */
export function countCrash(running: RunningServer, policy: RestartPolicy): number | undefined {
  if (running.readySince !== undefined && Date.now() - running.readySince >= policy.stableMs) running.crashes = 0;
  running.readySince = undefined;
  const wait = policy.backoffMs[running.crashes];
  running.crashes += 1;
  return wait;
}
