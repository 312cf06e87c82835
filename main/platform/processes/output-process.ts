import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { childEnvironment } from './child-environment';
import type { ChildEnvironmentOptions } from './child-environment';
import { launchFor } from './confined-launch';
import type { ConfinementRules, Launch } from './launch-types';
import { prestart, takePrestarted } from './prestarted-launch';
import { spawnLaunch } from './spawn-launch';
import type { ChildProcess, ChildProcessByStdio } from './spawn-launch';

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

/** A child writing its output into a file this process holds: stdout is no pipe (see startOutputFileProcess). */
export type FileOutputProcess = ChildProcess & {
  readonly stderr: Readable;
  readonly confined: boolean;
};

export function startOutputProcess(spec: OutputProcessSpec): OutputProcess {
  const launch = launchFor({ ...spec, shell: false });
  return start(launch, childEnvironment(launch.environment), spec, 'pipe') as OutputProcess;
}

/**
 * startOutputProcess, with the child's output written into a file this process holds (made by
 * openOutputFile, read by the caller once the child is done: readOutputFile; the caller closes it)
 * instead of a pipe: a program that writes a line per file it found (ripgrep's walk: 3,363 writes
 * on a 62k-file tree) then does not wake this process once per write while it runs, on the cores
 * it is using. The sandbox made ahead for the same start (prestartOutputFileProcess) runs it when
 * one waits.
 */
export function startOutputFileProcess(spec: OutputProcessSpec): { child: FileOutputProcess; output: number } {
  const launch = launchFor({ ...spec, shell: false });
  const environment = childEnvironment(launch.environment);
  const handed = takePrestarted(launch, environment, spec.inheritFds ?? [], spec.signal);
  if (handed !== undefined) return { child: Object.assign(handed.child, { confined: true }), output: handed.output };
  const output = openOutputFile();
  try {
    return { child: start(launch, environment, spec, output) as FileOutputProcess, output };
  } catch (error) {
    fs.closeSync(output);
    throw error;
  }
}

/**
 * Makes ahead the sandbox a confined startOutputFileProcess of `spec` would run its program in
 * (prestarted-launch.ts), whatever the program's arguments: the next such start only hands it over.
 */
export function prestartOutputFileProcess(spec: Omit<OutputProcessSpec, 'args' | 'signal'>): void {
  if (spec.confinement === undefined) return;
  let launch: Launch;
  try {
    launch = launchFor({ ...spec, args: [], shell: false });
  } catch {
    return; // an inherited folder closed meanwhile: nothing to make
  }
  prestart(launch, childEnvironment(launch.environment), spec.inheritFds ?? [], openOutputFile);
  // A sandbox made ahead holds no placeholder (handOver says so); one that could not be made frees its own.
  launch.release();
}

/**
 * An unnamed file for a child's output (startOutputFileProcess): created for this process alone
 * (owner only, a random name that must not exist) in the system's temp folder and unlinked at once.
 * The caller reads it (readOutputFile) and closes it.
 */
export function openOutputFile(): number {
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fs.constants;
  const path = join(tmpdir(), `familiar-output-${process.pid}-${randomBytes(8).toString('hex')}`);
  const fd = fs.openSync(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.unlinkSync(path);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}

/** What has been written into the output file `fd` from `from` on. */
export function readOutputFile(fd: number, from = 0): Buffer {
  const size = fs.fstatSync(fd).size;
  const bytes = Buffer.allocUnsafe(Math.max(0, size - from));
  let filled = 0;
  while (filled < bytes.length) {
    const read = fs.readSync(fd, bytes, filled, bytes.length - filled, from + filled);
    if (read === 0) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}

function start(launch: Launch, environment: Record<string, string>, spec: OutputProcessSpec, stdout: 'pipe' | number) {
  const child = spawnLaunch(launch, {
    stdio: ['ignore', stdout, 'pipe', ...(spec.inheritFds ?? [])],
    signal: spec.signal,
    environment,
  });
  return Object.assign(child, { confined: launch.confined });
}
