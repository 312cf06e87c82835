import { dirname, isAbsolute, relative, sep } from 'node:path';
import type { ConfinementRules } from './launch-types';

/**
 * The macOS translation of a process's rules (process-rules.ts decides them, once, for every OS):
 * a Seatbelt profile (SBPL) for `/usr/bin/sandbox-exec -p`. Shaped like Codex's and
 * @anthropic-ai/sandbox-runtime's profiles: deny by default, the system readable, the hidden trees
 * (the user's home, Familiar's home) denied for reading with what the rules put back re-allowed,
 * writes only where granted, persona and git-control files denied for writing, and the network
 * closed but for the loopback port of Familiar's proxy. In SBPL the last rule that matches wins,
 * so the order below is the order of precedence, as bwrap's mounts are on Linux.
 *
 * Seatbelt matches the path the kernel resolved (/var is /private/var): every path here must be
 * real already (`canonical`, given by the caller, resolves what exists).
 *
 * NOT YET RUN ON A MAC: verified only by the tests of the generated text (seatbelt-profile.test.ts)
 * and the argv (seatbelt-launch.test.ts), on Linux. SECURITY.md says so too.
 */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

export interface SeatbeltOptions {
  /** What a name is now (absent: undefined); decides the `.git` exemption, as absentProtected does on Linux. */
  readonly exists: (path: string) => 'file' | 'dir' | undefined;
  /** The process's own temporary folder (TMPDIR), writable, real path. */
  readonly tempDir: string;
  /** The loopback port of Familiar's proxy (network-bridge.ts); undefined: no network at all. */
  readonly proxyPort?: number;
}

/**
 * An SBPL string literal. SBPL reads strings as TinyScheme does: `\` escapes the next character,
 * `"` ends the string. Both are escaped; a control character (a newline in a folder's name) is
 * refused, since how each SBPL version reads one raw is not something tests here can show.
 */
export function sbplString(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new SeatbeltPathError(text);
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** A path Seatbelt cannot be given safely: the process does not start (confinement never silently weakens). */
export class SeatbeltPathError extends Error {
  constructor(readonly path: string) {
    super(`A path holds a control character and cannot be written into a Seatbelt profile: ${JSON.stringify(path)}`);
  }
}

const inside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Folders from `path`'s parent up to (not including) `stop`, or to / when `stop` does not hold it. */
function ancestors(path: string, stop?: string): string[] {
  const found: string[] = [];
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (stop !== undefined && !inside(dir, stop)) break;
    if (dir === stop) {
      found.push(dir);
      break;
    }
    found.push(dir);
  }
  return found;
}

/**
 * Read-only paths under a `.git` that does not exist inside a writable folder are left free, as
 * on Linux (confinement.ts: absentProtected): a folder with no repository stays free for `git init`.
 */
function protectsAbsentGit(path: string, rules: ConfinementRules, exists: SeatbeltOptions['exists']): boolean {
  const root = rules.writable.find((folder) => inside(path, folder) && folder !== path);
  if (root === undefined) return false;
  const names = relative(root, path).split(sep);
  const at = names.indexOf('.git');
  if (at === -1) return false;
  return exists([root, ...names.slice(0, at + 1)].join(sep)) === undefined;
}

/** What every confined process needs of the system: processes, sysctls, the user's name, ptys. */
const base = [
  '(version 1)',
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow user-preference-read)',
  '(allow mach-host*)',
  '(allow ipc-posix-sem)',
  '(allow ipc-posix-shm)',
  // Sysctls for the CPU, memory and OS version, and this process's own group: not kern.proc.all
  // (every process on the system), which Linux hides with a pid namespace.
  '(allow sysctl-read (sysctl-name-prefix "hw.") (sysctl-name-prefix "machdep.cpu.") (sysctl-name-prefix "kern.os")',
  '  (sysctl-name "kern.argmax") (sysctl-name "kern.hostname") (sysctl-name "kern.maxfiles") (sysctl-name "kern.maxfilesperproc")',
  '  (sysctl-name "kern.maxproc") (sysctl-name "kern.ngroups") (sysctl-name "kern.secure_kernel") (sysctl-name "kern.usrstack64")',
  '  (sysctl-name "kern.version") (sysctl-name "sysctl.proc_cputype") (sysctl-name "vm.loadavg")',
  '  (sysctl-name-prefix "kern.proc.pgrp.") (sysctl-name-prefix "kern.proc.pid."))',
  '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
  '(allow mach-lookup',
  '  (global-name "com.apple.system.opendirectoryd.libinfo")',
  '  (global-name "com.apple.system.opendirectoryd.membership")',
  '  (global-name "com.apple.PowerManagement.control")',
  '  (global-name "com.apple.system.logger")',
  '  (global-name "com.apple.logd")',
  '  (global-name "com.apple.bsd.dirhelper")',
  '  (global-name "com.apple.SecurityServer")',
  '  (global-name "com.apple.trustd.agent")',
  '  (global-name "com.apple.ocspd"))',
  '(allow pseudo-tty)',
  '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))',
  '(allow file-write-data file-ioctl (regex #"^/dev/ttys[0-9]+$"))',
  '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))',
  '(allow file-write-data (regex #"^/dev/fd/[0-9]+$"))',
];

/** The profile for `rules` (cwd is where the process starts, not a grant). */
export function seatbeltProfile(rules: ConfinementRules, options: SeatbeltOptions): string {
  const lines = [...base];
  const subpath = (path: string) => `(subpath ${sbplString(path)})`;
  const literal = (path: string) => `(literal ${sbplString(path)})`;
  const rule = (verb: string, filters: readonly string[]) => {
    if (filters.length > 0) lines.push(`(${verb} ${filters.join(' ')})`);
  };

  lines.push('; Reading: the system, not the hidden trees, then what the rules put back.');
  lines.push('(allow file-read*)');
  rule('deny file-read*', rules.hiddenTrees.map(subpath));
  const putBack = [...rules.readableInHidden, ...rules.readable, ...rules.writable, options.tempDir];
  rule('allow file-read*', putBack.map(subpath));
  // Finding a put-back folder by its path needs the metadata of the folders above it (getcwd, realpath).
  const above = new Set<string>();
  for (const path of putBack) {
    for (const tree of rules.hiddenTrees) {
      if (inside(path, tree) && path !== tree) for (const dir of ancestors(path, tree)) above.add(dir);
    }
  }
  rule('allow file-read-metadata', [...above].sort().map(literal));

  lines.push('; Writing: only the granted folders and the private temporary folder.');
  rule('allow file-write*', [...rules.writable, options.tempDir].map(subpath));

  // Read-only inside what is writable: no write, and no moving a folder above one away (a rename
  // of .git would carry its hooks out from under the rule), up to the writable folder itself.
  const readOnly = rules.readOnly.filter((path) => !protectsAbsentGit(path, rules, options.exists));
  lines.push('; Read-only: persona files and what makes a later program run something.');
  rule('deny file-write*', readOnly.map(subpath));
  const guarded = [...readOnly, ...rules.hidden];
  const moves = new Set<string>();
  for (const path of guarded) {
    const root = rules.writable.find((folder) => inside(path, folder) && folder !== path);
    if (root !== undefined) for (const dir of ancestors(path, root)) if (dir !== root) moves.add(dir);
  }
  rule('deny file-write-unlink', [...moves].sort().map(literal));

  lines.push('; Hidden: neither read nor written (memory files while memory is off).');
  rule('deny file-read* file-write*', rules.hidden.map(subpath));

  lines.push("; Network: none, but the loopback port of Familiar's proxy.");
  if (options.proxyPort !== undefined) {
    if (!Number.isInteger(options.proxyPort) || options.proxyPort <= 0 || options.proxyPort > 65535) {
      throw new RangeError(`Not a port: ${options.proxyPort}`);
    }
    lines.push(`(allow network-outbound (remote ip "localhost:${options.proxyPort}"))`);
  }
  return `${lines.join('\n')}\n`;
}

/** sandbox-exec's arguments: the profile, then the program after `--` (nothing it says is an option). */
export function seatbeltArgs(profile: string, program: readonly string[]): string[] {
  return ['-p', profile, '--', ...program];
}
