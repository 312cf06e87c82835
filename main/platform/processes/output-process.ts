import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { childEnvironment } from './child-environment';
import type { ChildEnvironmentOptions } from './child-environment';
import { launchFor } from './confined-launch';
import type { ConfinementRules } from './launch-types';

/**
 * A child whose output the caller reads as it streams (ripgrep's JSON lines), where the one-shot
 * runner (process-runner.ts) would buffer it whole. The rules are every child's: the allow-listed
 * environment, no shell, no stdin, the confinement its rules ask for; `signal` ends it.
 */
export interface OutputProcessSpec {
  readonly file: string;
  readonly args: readonly string[];
  /** Real absolute directory, or `/proc/self/fd/3` for the first of `inheritFds`. */
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  /** Descriptors the child inherits as 3, 4, ... (confined: mounted at their real paths, confined-launch.ts). */
  readonly inheritFds?: readonly number[];
  readonly signal: AbortSignal;
  /** process-rules.ts (rulesFor), without `cwd`. Undefined: the child runs with the user's rights. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
}

export type OutputProcess = ChildProcessByStdio<null, Readable, Readable> & {
  /** True when it runs inside the operating system's confinement (bubblewrap). */
  readonly confined: boolean;
};

export function startOutputProcess(spec: OutputProcessSpec): OutputProcess {
  const launch = launchFor({ ...spec, shell: false });
  const child = spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: childEnvironment(launch.environment),
    stdio: ['ignore', 'pipe', 'pipe', ...(spec.inheritFds ?? [])],
    signal: spec.signal,
    windowsHide: true,
  }) as ChildProcessByStdio<null, Readable, Readable>;
  child.once('exit', launch.release);
  child.once('error', launch.release);
  return Object.assign(child, { confined: launch.confined });
}
