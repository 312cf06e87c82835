import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { isAbsolute, join } from 'node:path';
import { HeadTailBuffer } from './capped-output';
import { launchFor } from './confined-launch';
import type { Launch } from './launch-types';
import { confinementMode } from './confinement';
import { openBridgeFor } from './network-bridge';
import type { NetworkBridge } from './launch-types';
import type { HostDecision, NetworkProxyOptions } from './network-proxy';
import { findOnPath } from './program-lookup';
import type { ConfinementRules } from './launch-types';
import { childEnvironment } from './child-environment';
import { killTree, spawnLaunch } from './spawn-launch';
import type { ChildProcess } from './spawn-launch';
import type { ChildEnvironmentOptions } from './child-environment';

export interface ProcessSpec {
  /** Without a shell: the program and its arguments. With `shell`, one command line for the platform shell. */
  readonly file: string;
  readonly args: readonly string[];
  readonly shell: boolean;
  /** Real absolute directory, already checked by the sandbox. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Per stream: stdout and stderr are each kept to this many bytes (head and tail). */
  readonly maxOutputBytes: number;
  /**
   * How the child's environment is built (childEnvironment: an allow-list plus the user's names).
   * There is no way to hand a child this process's environment as it is.
   */
  readonly environment: ChildEnvironmentOptions;
  /** Written to the child's stdin, then closed; default: stdin closed at once. */
  readonly stdin?: string | Uint8Array;
  /** Descriptors the child inherits as 3, 4, ... (a folder held open, named /proc/self/fd/3 there). */
  readonly inheritFds?: readonly number[];
  /** Keep stdout as bytes too (binary output: git cat-file); undefined in the outcome if it was cut. */
  readonly stdoutBytes?: boolean;
  /**
   * The operating system's confinement (process-rules.ts: rulesFor), without `cwd`: the runner
   * puts the real working folder in. Undefined: the process runs with the user's rights.
   */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
  /**
   * The network, for a confined process: each host it reaches for is put to `gate` (network-proxy.ts),
   * through a proxy that lives as long as the process. Undefined: no network at all.
   */
  readonly network?: NetworkProxyOptions;
}

export interface ProcessOutcome {
  readonly exitCode: number | null;
  /** The signal that ended the process, if one did. */
  readonly signal: string | null;
  readonly stdout: string;
  /** With spec.stdoutBytes, stdout whole as bytes; undefined when it exceeded maxOutputBytes. */
  readonly stdoutBytes?: Buffer | undefined;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  /** The turn was stopped while it ran. */
  readonly aborted: boolean;
  readonly durationMs: number;
  readonly pid: number | undefined;
  /** True when it ran inside the operating system's confinement (bubblewrap). */
  readonly confined: boolean;
  /** The hosts a confined process asked to reach through the proxy, and whether it could. */
  readonly hosts: readonly HostDecision[];
}

/** After the main process exits, how long its output pipes may stay open before the rest is killed. */
const DRAIN_MS = 300;
/** Between the polite and the forced kill of a tree. */
const KILL_GRACE_MS = 1000;

/**
 * Runs one process with bounded output, a timeout and stop support; every ending kills what is left of
 * its tree. Never rejects: a program that cannot start is `command_not_found` / `permission_denied`.
 */
export async function runProcess(spec: ProcessSpec): Promise<Result<ProcessOutcome>> {
  if (spec.signal.aborted) return err('aborted', 'The turn was stopped before the command started.');
  const mode = spec.confinement === undefined || process.platform === 'win32' ? undefined : confinementMode();
  const confined = mode?.confined === true;
  // Inside the sandbox a missing program is bwrap's own error: say it as the unconfined start would.
  if (
    confined &&
    !spec.shell &&
    findProgram(spec.file, spec.cwd, childEnvironment(spec.environment)['PATH']) === undefined
  ) {
    return err('command_not_found', `'${spec.file}' was not found (not installed, or not on PATH).`, {
      command: spec.file,
    });
  }
  // Without a way in (no socat under bubblewrap) the process runs with no network, as if none were offered.
  const bridge = await openBridgeFor(mode, spec.network);
  try {
    return await launchProcess(spec, launchFor({ ...spec, ...(bridge === undefined ? {} : { bridge }) }), bridge);
  } finally {
    await bridge?.close();
  }
}

function launchProcess(
  spec: ProcessSpec,
  launch: Launch,
  bridge: NetworkBridge | undefined,
): Promise<Result<ProcessOutcome>> {
  const started = Date.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // Released by `finish` once its pipes drained and its group was killed, not at its exit, or
      // by the 'error' handler below when it could not start.
      child = spawnLaunch(launch, {
        stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(spec.inheritFds ?? [])],
        ownGroup: true,
        releaseWhenGone: false,
      });
    } catch (error) {
      resolve(err('internal_error', `Could not start ${spec.file}: ${String(error)}`));
      return;
    }
    const stdout = new HeadTailBuffer(spec.maxOutputBytes);
    const stderr = new HeadTailBuffer(spec.maxOutputBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    if (spec.stdin !== undefined) {
      // A child that exits without reading its input (git refusing early) makes the write fail with
      // EPIPE: an 'error' nobody listened to would end the whole process.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(spec.stdin);
    }

    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let settled = false;
    let forceTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const terminate = () => {
      killTree(child, 'SIGTERM');
      forceTimer ??= setTimeout(() => killTree(child, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, spec.timeoutMs);
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    spec.signal.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      spec.signal.removeEventListener('abort', onAbort);
      // Whatever the main process left running (background jobs holding the pipes) goes too.
      killTree(child, 'SIGKILL');
      clearTimeout(forceTimer);
      launch.release();
      const out = stdout.text();
      const errText = stderr.text();
      resolve(
        ok({
          exitCode: exit?.code ?? null,
          signal: exit?.signal ?? null,
          stdout: out.text,
          ...(spec.stdoutBytes === true ? { stdoutBytes: stdout.bytes() } : {}),
          stderr: errText.text,
          stdoutTruncated: out.truncated,
          stderrTruncated: errText.truncated,
          timedOut,
          aborted,
          durationMs: Date.now() - started,
          pid: child.pid,
          confined: launch.confined,
          hosts: bridge?.decisions() ?? [],
        }),
      );
    };

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled || exit !== undefined) return;
      settled = true;
      launch.release();
      clearTimeout(timer);
      spec.signal.removeEventListener('abort', onAbort);
      if (error.code === 'ENOENT' && !launch.confined) {
        resolve(
          err('command_not_found', `'${spec.file}' was not found (not installed, or not on PATH).`, {
            command: spec.file,
          }),
        );
      } else if (error.code === 'EACCES') {
        resolve(err('permission_denied', `'${spec.file}' cannot be executed (permission denied).`));
      } else {
        resolve(err('internal_error', `Could not start '${spec.file}': ${error.message}`));
      }
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(finish, DRAIN_MS);
    });
    child.on('close', () => {
      if (exit !== undefined) finish();
    });
  });
}

/** A program as a start would find it: a path (relative to the working folder) or a name on PATH. */
function findProgram(file: string, cwd: string, path: string | undefined): string | undefined {
  return file.includes('/') ? findOnPath(isAbsolute(file) ? file : join(cwd, file), '') : findOnPath(file, path ?? '');
}
