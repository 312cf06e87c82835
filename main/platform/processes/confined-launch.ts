import { existsSync, readlinkSync, statSync } from 'node:fs';
import { bwrapArgs, confinementMode } from './confinement';
import type { ConfinementRules, HeldMount } from './confinement';
import type { ChildEnvironmentOptions } from './child-environment';
import type { NetworkBridge } from './network-bridge';

/**
 * How every child is started, confined or not: the one decision the runner (process-runner.ts),
 * streamed output (output-process.ts) and servers (server-process.ts) share. Under bubblewrap when
 * the spec has rules and the system can confine, else as asked.
 */
export interface LaunchRequest {
  readonly file: string;
  readonly args: readonly string[];
  /** `file` is one command line for the platform shell (run inside the sandbox as `/bin/sh -c`). */
  readonly shell: boolean;
  /**
   * The working folder as the child names it at start: a real path, or `/proc/self/fd/<n>` for a
   * descriptor (one of `inheritFds`, counted from 3, else one this process holds).
   */
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  /** Descriptors the child inherits as 3, 4, ...: folders it names as /proc/self/fd/3, ... */
  readonly inheritFds?: readonly number[];
  /** process-rules.ts (rulesFor), without `cwd`. Undefined: the child runs with the user's rights. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
  /** The way to the network for a confined process (network-bridge.ts): started first, it hands over to the program. */
  readonly bridge?: NetworkBridge;
}

export interface Launch {
  /** What to spawn: the program itself, or bwrap with the program after its arguments. */
  readonly file: string;
  readonly args: string[];
  readonly shell: boolean;
  readonly cwd: string;
  readonly environment: ChildEnvironmentOptions;
  readonly confined: boolean;
}

const procFd = /^\/proc\/self\/fd\/(\d+)(?=\/|$)/;

/**
 * Inside the sandbox an inherited folder descriptor would be a door out of it: its `..` and the
 * relative links below it walk the host's tree, not the sandbox's, and writes through it ignore the
 * read-only mounts (measured: `touch /proc/self/fd/3/hooks/x` inside a read-only .git/hooks
 * succeeded). So a confined child inherits no folder: bwrap mounts each one from its descriptor at
 * its real path (the folder that was checked, even if its path was swapped meanwhile) and closes
 * it, and the arguments and working folder name it by that path instead of /proc/self/fd/<n>.
 */
export function launchFor(request: LaunchRequest): Launch {
  const mode = request.confinement === undefined || process.platform === 'win32' ? undefined : confinementMode();
  if (request.confinement === undefined || mode === undefined || !mode.confined) {
    return {
      file: request.file,
      args: [...request.args],
      shell: request.shell,
      cwd: request.cwd,
      environment: request.environment,
      confined: false,
    };
  }
  const inherited = request.inheritFds ?? [];
  const held: HeldMount[] = inherited.map((fd, index) => ({ fd: 3 + index, path: realPathOf(fd) }));
  const named = (text: string) => {
    const found = procFd.exec(text);
    const folder = found === null ? undefined : held.find((mount) => mount.fd === Number(found[1]));
    return folder === undefined ? text : folder.path + text.slice(found![0].length);
  };
  // `--git-dir=/proc/self/fd/3` names it after an option's `=`.
  const args = request.args.map((arg) => {
    const at = arg.indexOf('=/proc/self/fd/');
    return at === -1 ? named(arg) : arg.slice(0, at + 1) + named(arg.slice(at + 1));
  });
  const cwd = named(request.cwd);
  const rules = { ...request.confinement, cwd: procFd.test(cwd) ? realPathOf(Number(procFd.exec(cwd)![1])) : cwd };
  const program = request.shell ? ['/bin/sh', '-c', request.file] : [request.file, ...args];
  return {
    file: mode.path,
    args: [
      ...bwrapArgs(rules, kindOf, held, request.bridge?.bwrapMounts),
      ...(request.bridge?.wrap(program) ?? program),
    ],
    shell: false,
    // bwrap changes into rules.cwd inside the sandbox; it starts where nothing is held.
    cwd: '/',
    // Inside the sandbox /tmp is a fresh folder of the child's own: the temp variables point there.
    environment: {
      ...request.environment,
      set: { ...request.environment.set, TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp', ...request.bridge?.environment },
    },
    confined: true,
  };
}

/** The real folder a descriptor of this process holds (Linux, where confinement runs). */
function realPathOf(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

const kindOf = (path: string): 'file' | 'dir' | undefined => {
  if (!existsSync(path)) return undefined;
  return statSync(path).isDirectory() ? 'dir' : 'file';
};
