import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** A child writing its output into a file this process holds: stdout is no pipe (see startFileOutputProcess). */
export type FileOutputProcess = ChildProcessByStdio<null, null, Readable> & {
  readonly confined: boolean;
};

export function startOutputProcess(spec: OutputProcessSpec): OutputProcess {
  return start(spec, 'pipe') as OutputProcess;
}

/**
 * startOutputProcess, with the child's output written into `outputFd` (a file this process holds
 * open, read by the caller once the child is done) instead of a pipe: a program that writes a line
 * per file it found (ripgrep's walk: 3,363 writes on a 62k-file tree) then does not wake this
 * process once per write while it runs, on the cores it is using.
 */
export function startFileOutputProcess(spec: OutputProcessSpec, outputFd: number): FileOutputProcess {
  return start(spec, outputFd) as FileOutputProcess;
}

/**
 * An unnamed file for a child's output (startFileOutputProcess): created for this process alone
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

function start(spec: OutputProcessSpec, stdout: 'pipe' | number) {
  const launch = launchFor({ ...spec, shell: false });
  const child = spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: childEnvironment(launch.environment),
    stdio: ['ignore', stdout, 'pipe', ...(spec.inheritFds ?? [])],
    signal: spec.signal,
    windowsHide: true,
  });
  child.once('exit', launch.release);
  child.once('error', launch.release);
  return Object.assign(child, { confined: launch.confined });
}
