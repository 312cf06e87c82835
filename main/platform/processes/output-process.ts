import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { childEnvironment } from './child-environment';
import type { ChildEnvironmentOptions } from './child-environment';

/**
 * A child whose output the caller reads as it streams (ripgrep's JSON lines), where the one-shot
 * runner (process-runner.ts) would buffer it whole. The rules are every child's: the allow-listed
 * environment, no shell, no stdin; `signal` ends it.
 */
export interface OutputProcessSpec {
  readonly file: string;
  readonly args: readonly string[];
  /** Real absolute directory, or `/proc/self/fd/3` for the first of `inheritFds`. */
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  /** Descriptors the child inherits as 3, 4, ... */
  readonly inheritFds?: readonly number[];
  readonly signal: AbortSignal;
}

export type OutputProcess = ChildProcessByStdio<null, Readable, Readable>;

export function startOutputProcess(spec: OutputProcessSpec): OutputProcess {
  return spawn(spec.file, [...spec.args], {
    cwd: spec.cwd,
    env: childEnvironment(spec.environment),
    stdio: ['ignore', 'pipe', 'pipe', ...(spec.inheritFds ?? [])],
    signal: spec.signal,
    windowsHide: true,
  }) as OutputProcess;
}
