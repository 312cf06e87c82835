import { constants, lstatSync, readlinkSync, rmdirSync, statSync } from 'node:fs';
import { absentProtected, bwrapArgs, confinementMode } from './confinement';
import type { ConfinementMode, HeldMount } from './confinement';
import type { Launch, LaunchRequest } from './launch-types';
import { hasAccess } from './program-lookup';
import { seatbeltLaunch } from './seatbelt-launch';

/**
 * How every child is started, confined or not: the one decision the runner (process-runner.ts),
 * streamed output (output-process.ts) and servers (server-process.ts) share. Under bubblewrap when
 * the spec has rules and the system can confine (Seatbelt on macOS: seatbelt-launch.ts), else as asked.
 */

const procFd = /^\/proc\/self\/fd\/(\d+)(?=\/|$)/;

/**
 * Inside the sandbox an inherited folder descriptor would be a door out of it: its `..` and the
 * relative links below it walk the host's tree, not the sandbox's, and writes through it ignore the
 * read-only mounts (measured: `touch /proc/self/fd/3/hooks/x` inside a read-only .git/hooks
 * succeeded). So a confined child inherits no folder: bwrap mounts each one from its descriptor at
 * its real path (the folder that was checked, even if its path was swapped meanwhile) and closes
 * it, and the arguments and working folder name it by that path instead of /proc/self/fd/<n>.
 */
export function launchFor(request: LaunchRequest, probed?: ConfinementMode): Launch {
  // `probed`: tests give the mode (macOS's, on Linux); the app always asks the probe.
  const mode =
    request.confinement === undefined || process.platform === 'win32' ? undefined : (probed ?? confinementMode());
  if (request.confinement === undefined || mode === undefined || !mode.confined) {
    return {
      file: request.file,
      args: [...request.args],
      shell: request.shell,
      cwd: request.cwd,
      environment: request.environment,
      confined: false,
      release: () => undefined,
    };
  }
  if (mode.tool === 'seatbelt') return seatbeltLaunch(request, mode.path);
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
  // A placeholder another child holds is there only as its mount point: held again, not taken for a
  // name that exists (which the first child's end would remove from under this one).
  const seen = (path: string) => (placeholders.has(path) ? undefined : kindOf(path));
  const ownPlaceholders = absentProtected(rules, seen, canCreateIn, held);
  for (const path of ownPlaceholders) placeholders.set(path, (placeholders.get(path) ?? 0) + 1);
  let released = false;
  const confinementArgs = bwrapArgs(rules, seen, held, request.bridge?.bwrapMounts, ownPlaceholders);
  return {
    file: mode.path,
    args: [...confinementArgs, ...(request.bridge?.wrap(program) ?? program)],
    shell: false,
    // bwrap changes into rules.cwd inside the sandbox; it starts where nothing is held.
    cwd: '/',
    // Inside the sandbox /tmp is a fresh folder of the child's own: the temp variables point there.
    environment: {
      ...request.environment,
      set: { ...request.environment.set, TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp', ...request.bridge?.environment },
    },
    confined: true,
    ...(ownPlaceholders.length === 0 && request.bridge === undefined && !request.shell
      ? { handOver: { confinementArgs, program } }
      : {}),
    release: () => {
      if (released) return;
      released = true;
      // Deepest first: a placeholder inside another's folder goes before it.
      for (const path of [...ownPlaceholders].sort((a, b) => b.length - a.length)) {
        const users = (placeholders.get(path) ?? 1) - 1;
        if (users > 0) placeholders.set(path, users);
        else {
          placeholders.delete(path);
          removeEmptyFolder(path);
        }
      }
    },
  };
}

/**
 * Absent protected names held as empty read-only folders for running children (absentProtected in
 * confinement.ts), each with the number of children using it. bwrap made each one's mount point on
 * the host; it goes when the last of them is gone. Removing it earlier would detach the mount
 * inside a child still running, and the name would be free to create there.
 */
const placeholders = new Map<string, number>();

/** Where this user may create a name (the child runs as this user: where it cannot, neither could the child). */
const canCreateIn = (folder: string): boolean => hasAccess(folder, constants.W_OK);

/**
 * A placeholder's mount point, removed only while it is still the empty folder bwrap made: rmdir
 * neither descends nor follows a link, so whatever was put there meanwhile (on the host, by another
 * program) stays as found.
 */
function removeEmptyFolder(path: string): void {
  try {
    if (lstatSync(path).isDirectory()) rmdirSync(path);
  } catch {
    // Not empty, or gone: left as it is.
  }
}

/** The real folder a descriptor of this process holds (Linux, where confinement runs). */
function realPathOf(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

/** What a name is now; undefined when it is not there (or goes while it is looked at: the workspace is live). */
const kindOf = (path: string): 'file' | 'dir' | undefined => {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats === undefined ? undefined : stats.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
};
