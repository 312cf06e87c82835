import * as fs from 'node:fs';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Launch } from './launch-types';
import { spawnLaunch } from './spawn-launch';
import type { ChildProcessByStdio } from './spawn-launch';

/**
 * A confined start made ahead: bubblewrap spawned, its sandbox set up and, inside it, a shell
 * waiting to become the program. Spawning bwrap costs a fork of this large process and the
 * sandbox's namespaces and mounts: measured from a process holding 200 MB, ripgrep on a small
 * folder took 47 ms through bwrap, 20 ms alone and 29 ms handed to a sandbox made ahead. ripgrep's
 * walk starts once per search (ripgrep-walk.ts): a search that comes while one waits gets that back.
 *
 * The shell reads the program and its arguments one a line until its input ends, then execs them:
 * nothing is parsed or evaluated, and a program with an argument holding a newline is never handed
 * over (the caller starts it afresh). A sandbox made ahead is used only by a start whose sandbox
 * would be the very same now: the same bwrap arguments (those name every mount, and what exists
 * of the protected names when they were made), working folder, environment, and inherited folders
 * (the same path, device and inode), compared when it is taken. One waits at most, for MAX_AGE_MS.
 */
const becomeTheProgram = 'set --; while IFS= read -r arg; do set -- "$@" "$arg"; done; exec "$@" </dev/null';

type Waiter = ChildProcessByStdio<Writable, null, Readable>;

interface Waiting {
  readonly key: string;
  readonly child: Waiter;
  /** The file its output goes to (its stdout): this process's own descriptor of it. */
  readonly output: number;
  /** performance.now() when it was made: it serves until MAX_AGE_MS after. */
  readonly madeAt: number;
  readonly expiry: NodeJS.Timeout;
}

let waiting: Waiting | undefined;

/**
 * A sandbox made ahead serves only this long after it was made, then goes unused. Its mounts were
 * made by name: a name replaced on the host since (a memory file hidden while memory is off,
 * deleted and written again) is no longer covered in it, where a sandbox made now would cover it.
 * This keeps that window a few seconds, about a long search's own, and still serves a search that
 * follows another, or a client's first search a moment after the start.
 */
export const MAX_AGE_MS = 5000;

/** A started program handed to a sandbox made ahead, and the file its output goes to (the caller closes it). */
export interface HandedOver {
  readonly child: Waiter;
  readonly output: number;
}

/**
 * What makes two confined starts the same but for their program; undefined where it cannot be
 * handed over. The paths bwrap's arguments name (each mount's source and target, each name hidden)
 * count by what is there now, not only by name: a mount sits on the entry it was made on, and the
 * host replacing that entry (an editor saving MEMORY.md by a rename over it) detaches the mount in
 * the sandbox, where the new file then shows. A sandbox made now would cover it.
 */
function sandboxKey(launch: Launch, environment: Record<string, string>, inheritFds: readonly number[]) {
  if (launch.handOver === undefined) return undefined;
  const { confinementArgs } = launch.handOver;
  const identity = (stats: fs.BigIntStats | undefined) =>
    stats === undefined ? 'none' : `${stats.dev}:${stats.ino}:${stats.mode & BigInt(fs.constants.S_IFMT)}`;
  try {
    const folders = inheritFds.map((fd) => [
      fs.readlinkSync(`/proc/self/fd/${fd}`),
      identity(fs.fstatSync(fd, { bigint: true })),
    ]);
    const named = confinementArgs
      .filter((arg) => arg.startsWith('/'))
      .map((path) => identity(fs.lstatSync(path, { bigint: true, throwIfNoEntry: false })));
    return JSON.stringify([launch.file, confinementArgs, launch.cwd, environment, folders, named]);
  } catch {
    return undefined; // a descriptor closed meanwhile: nothing to compare with
  }
}

const alive = (child: Waiter) => child.exitCode === null && child.signalCode === null;
/** Past its age, whether or not its timer has run yet (an event loop held up runs it late). */
const tooOld = (sandbox: Waiting) => performance.now() - sandbox.madeAt > MAX_AGE_MS;

/**
 * Drops the sandbox waiting, if any, and closes its output file. Its input is closed: the shell
 * reads no program and ends, and bwrap with it. Not killed: bwrap killed while it still sets the
 * sandbox up can leave its inner process behind, holding the pipes.
 */
export function discardPrestarted(): void {
  const gone = waiting;
  waiting = undefined;
  if (gone === undefined) return;
  clearTimeout(gone.expiry);
  gone.child.stdin.destroy();
  fs.closeSync(gone.output);
}

/**
 * Makes ahead the sandbox `launch` would start its program in (a confined launch with `handOver`),
 * its output into a file `openOutput` makes; does nothing if the same one already waits. It keeps
 * no process alive that is ending.
 */
export function prestart(
  launch: Launch,
  environment: Record<string, string>,
  inheritFds: readonly number[],
  openOutput: () => number,
): void {
  const key = sandboxKey(launch, environment, inheritFds);
  if (key === undefined || launch.handOver === undefined) return;
  if (waiting !== undefined && waiting.key === key && alive(waiting.child) && !tooOld(waiting)) return;
  const madeAt = performance.now();
  discardPrestarted();
  let output: number;
  let child: Waiter;
  try {
    output = openOutput();
  } catch {
    return;
  }
  try {
    // The same launch with the waiting shell for its program. A launch that can be handed over
    // holds no placeholders; the caller releases it all the same.
    const waiter: Launch = {
      ...launch,
      args: [...launch.handOver.confinementArgs, '/bin/sh', '-c', becomeTheProgram],
      release: () => undefined,
    };
    // Its input and stderr are pipes (stdio below); the inherited folders after them make Node's
    // typings give up on saying so.
    child = spawnLaunch(waiter, { stdio: ['pipe', output, 'pipe', ...inheritFds], environment }) as Waiter;
  } catch {
    fs.closeSync(output);
    return;
  }
  // A sandbox that could not be set up (bwrap said why and exited) is simply not there to take.
  const discardOwn = () => {
    if (waiting?.child === child) discardPrestarted();
  };
  child.on('error', discardOwn);
  child.on('exit', discardOwn);
  child.stdin.on('error', () => undefined); // gone before its program was handed over
  child.unref();
  (child.stdin as Socket).unref();
  (child.stderr as Socket).unref();
  waiting = { key, child, output, madeAt, expiry: setTimeout(discardOwn, MAX_AGE_MS).unref() };
}

/**
 * The sandbox made ahead for `launch`, now running its program, if one waits that is the very same
 * (see above); else undefined and the caller starts afresh. `signal` ends it, as spawn's would.
 */
export function takePrestarted(
  launch: Launch,
  environment: Record<string, string>,
  inheritFds: readonly number[],
  signal: AbortSignal,
): HandedOver | undefined {
  const ready = waiting;
  const program = launch.handOver?.program;
  if (ready === undefined || program === undefined || signal.aborted || !alive(ready.child)) return undefined;
  if (tooOld(ready)) {
    discardPrestarted();
    return undefined;
  }
  // One a line: a newline would split an argument, and the shell drops a NUL (a fresh start refuses one).
  if (program.some((arg) => /[\n\0]/.test(arg))) return undefined;
  if (sandboxKey(launch, environment, inheritFds) !== ready.key) return undefined;
  waiting = undefined;
  clearTimeout(ready.expiry);
  const { child } = ready;
  child.ref();
  (child.stderr as Socket).ref();
  child.stdin.end(`${program.join('\n')}\n`);
  // As spawn's own `signal` does: the error only when it was still there to kill.
  const onAbort = () => {
    if (child.kill('SIGTERM'))
      child.emit(
        'error',
        Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }),
      );
  };
  signal.addEventListener('abort', onAbort, { once: true });
  child.once('exit', () => signal.removeEventListener('abort', onAbort));
  return { child, output: ready.output };
}
