import { spawn } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { childEnvironment } from './child-environment';
import type { Launch } from './launch-types';

/** The types of what spawnLaunch returns, for the modules beside it (which import no child_process). */
export type { ChildProcess, ChildProcessByStdio, ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * The one place a launch becomes a process. confined-launch.ts decides what runs (the program, or
 * bwrap / sandbox-exec around it) and with which environment; every start of one (the runner,
 * streamed output, servers, a sandbox made ahead, the login shell's PATH) spawns it here, with the
 * same rules: the allow-listed environment, the launch's working folder and shell, no window, and
 * its placeholders released when the start fails. Lint keeps `child_process` to this file and the
 * confinement probe (eslint.config.js).
 */
export interface SpawnLaunchOptions {
  /** Input, output and errors, then the descriptors the child inherits as 3, 4, ... */
  readonly stdio: StdioOptions;
  /** Its own process group (POSIX): killTree then reaches what it starts (a shell's `sleep &`, tsserver). */
  readonly ownGroup?: boolean;
  /** Ends it, as spawn's own `signal`. */
  readonly signal?: AbortSignal;
  /** childEnvironment(launch.environment), where the caller built it already (to compare starts). */
  readonly environment?: Record<string, string>;
  /**
   * Release the launch's placeholders when the child exits or its start fails (default). False
   * where the caller does, later: the runner, once the child's pipes drained and its group was
   * killed (an 'error' after the exit, a kill that failed, must not release them while what the
   * child started may still run).
   */
  readonly releaseWhenGone?: boolean;
}

export function spawnLaunch(launch: Launch, options: SpawnLaunchOptions): ChildProcess {
  let child: ChildProcess;
  try {
    child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: options.environment ?? childEnvironment(launch.environment),
      shell: launch.shell,
      detached: options.ownGroup === true && process.platform !== 'win32',
      windowsHide: true,
      stdio: options.stdio,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    launch.release();
    throw error;
  }
  if (options.releaseWhenGone !== false) {
    child.once('exit', launch.release);
    child.once('error', launch.release);
  }
  return child;
}

/**
 * Ends the whole tree, not just the child: a shell's `sleep 100 &` or a test runner's workers would
 * otherwise outlive the timeout. POSIX: the child leads its own process group (spawnLaunch's
 * ownGroup), so one signal to -pid reaches every descendant that did not leave the group on
 * purpose. Windows: taskkill /T walks the tree.
 */
export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
      windowsHide: true,
      stdio: 'ignore',
      env: childEnvironment({ pass: [] }),
    }).on('error', () => {
      child.kill(signal);
    });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
