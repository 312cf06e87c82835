import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';
import { childEnvironment } from './child-environment';
import type { ConfinementRules } from './launch-types';
import { findOnPath } from './program-lookup';
import { SANDBOX_EXEC, seatbeltArgs, seatbeltProfile } from './seatbelt-profile';

/**
 * The operating system's confinement of what Familiar starts (issue 28). On Linux every process
 * runs under bubblewrap: a mount namespace where the file system is read-only, the user's home is
 * an empty folder with only the toolchains put back (read-only), Familiar's own home is absent,
 * the workspace is writable only where the process's rules say, persona and git-control files
 * inside it are read-only or hidden, /tmp is a fresh private folder, and the network namespace is
 * empty. Each kind of process (a command, git, ripgrep, a language server, an MCP server) gets its
 * own rules, written once in process-rules.ts; this file only turns rules into a bwrap command line.
 * On macOS the same rules become a Seatbelt profile (seatbelt-profile.ts, seatbelt-launch.ts).
 *
 * Why bwrap directly rather than @anthropic-ai/sandbox-runtime: SECURITY.md ("Confinement").
 */

export type ConfinementMode =
  | {
      readonly confined: true;
      readonly tool: 'bubblewrap';
      readonly path: string;
      /** socat, which carries a command's network requests to Familiar's proxy; without it, no network. */
      readonly socat: string | undefined;
    }
  | {
      readonly confined: true;
      /** macOS: /usr/bin/sandbox-exec with a profile per process (seatbelt-profile.ts); no socat needed. */
      readonly tool: 'seatbelt';
      readonly path: string;
      readonly socat?: undefined;
    }
  | { readonly confined: false; readonly reason: string; readonly fix: string };

let probed: ConfinementMode | undefined;
let probing: Promise<unknown> | undefined;
/** Counts resets: a background probe started before one does not answer after it. */
let generation = 0;

/** The mode, probed once per process: bubblewrap found and able to start `true` in a new namespace. */
export function confinementMode(): ConfinementMode {
  probed ??= probeConfinement();
  return probed;
}

/**
 * Starts the probe in the background (Linux), as the tools are set up: the first call that needs
 * the mode (a search that lets ripgrep walk, the policy's check of a command) then finds it known,
 * instead of waiting for bubblewrap to start `true` (20-30 ms, synchronously). A call that comes
 * before it has settled probes as before. Settles once the mode is known.
 */
export function probeConfinementSoon(): Promise<unknown> {
  if (probing !== undefined) return probing;
  if (probed !== undefined || process.platform !== 'linux') return Promise.resolve();
  const plan = linuxProbe();
  if (!('bwrap' in plan)) {
    probed = plan;
    return Promise.resolve();
  }
  const started = generation;
  probing = new Promise<ProbeRun>((resolve) => {
    try {
      execFile(plan.bwrap, plan.args, probeOptions(), (error, _stdout, stderr) =>
        resolve(
          error === null
            ? { status: 0, stderr }
            : {
                status: typeof error.code === 'number' ? error.code : null,
                stderr,
                error,
                signal: error.signal ?? null,
              },
        ),
      );
    } catch (error) {
      // A start refused at once (ENOMEM, E2BIG): as spawnSync reports it, a run that failed.
      resolve({ status: null, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }).then((run) => {
    if (started === generation) probed ??= linuxMode(plan.bwrap, run);
  });
  return probing;
}

/** For tests: probe again (after PATH or the platform changed). */
export function resetConfinementProbe(): void {
  probed = undefined;
  probing = undefined;
  generation += 1;
}

function probeConfinement(): ConfinementMode {
  if (process.platform === 'darwin' && !unconfinedByChoice()) {
    return probeSeatbelt((file, args) => spawnSync(file, args, probeOptions()));
  }
  const plan = linuxProbe();
  return 'bwrap' in plan ? linuxMode(plan.bwrap, spawnSync(plan.bwrap, plan.args, probeOptions())) : plan;
}

const unconfinedByChoice = () => process.env['FAMILIAR_UNCONFINED'] === '1';

/** What decides the mode without starting anything, or the bubblewrap command whose run decides it. */
function linuxProbe(): ConfinementMode | { readonly bwrap: string; readonly args: string[] } {
  if (unconfinedByChoice()) {
    return {
      confined: false,
      reason: 'FAMILIAR_UNCONFINED=1 is set in the environment Familiar was started with.',
      fix: 'Start Familiar without FAMILIAR_UNCONFINED.',
    };
  }
  if (process.platform !== 'linux') {
    return {
      confined: false,
      reason: `No confinement is built for ${process.platform} yet: commands run with your user's rights.`,
      fix: 'Every command asks before it runs.',
    };
  }
  const bwrap = findOnPath('bwrap');
  if (bwrap === undefined) {
    return {
      confined: false,
      reason: 'bubblewrap (bwrap) is not installed.',
      fix: 'Install it: sudo apt-get install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora).',
    };
  }
  return { bwrap, args: [...baseArgs(), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'] };
}

/** The mode bubblewrap's run of `true` shows. */
function linuxMode(bwrap: string, probe: ProbeRun): ConfinementMode {
  if (probe.status === 0) return { confined: true, tool: 'bubblewrap', path: bwrap, socat: findOnPath('socat') };
  const said = `${probe.stderr ?? ''}`.trim().split('\n').slice(-2).join(' ') || String(probe.error ?? probe.signal);
  return {
    confined: false,
    reason: `bubblewrap cannot create a sandbox here: ${said}`,
    fix:
      'Unprivileged user namespaces are off. On Ubuntu 24.04 AppArmor restricts them: install the Familiar .deb (it ships an AppArmor profile) ' +
      'or run: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0. In a container, allow user namespaces.',
  };
}

const probeOptions = () => ({ env: childEnvironment({ pass: [] }), timeout: 5000, encoding: 'utf8' as const });

/** What the probe learned from one run: spawnSync's answer, reduced to what is read of it. */
export interface ProbeRun {
  readonly status: number | null;
  readonly stderr?: string | null;
  readonly error?: Error;
  readonly signal?: NodeJS.Signals | null;
}

/**
 * macOS: `true` started under sandbox-exec with the same kind of profile every process gets (deny by
 * default, the home hidden), so a profile the system refuses shows here, once, and not at each
 * command. Not yet run on a Mac (SECURITY.md): verified by the tests of what it runs and reads.
 */
export function probeSeatbelt(run: (file: string, args: string[]) => ProbeRun, home = homedir()): ConfinementMode {
  // Every kind of rule appears once (none of these paths need exist: Seatbelt matches names), so a
  // rule this macOS does not understand makes the probe fail, not each command.
  const scratch = '/private/tmp/familiar-probe';
  const profile = seatbeltProfile(
    {
      writable: [scratch],
      readable: ['/usr'],
      readOnly: [`${scratch}/.git/hooks`],
      hidden: [`${scratch}/MEMORY.md`],
      hiddenTrees: [home],
      readableInHidden: [`${home}/.gitconfig`],
      cwd: '/',
    },
    { exists: () => 'dir', tempDir: `${scratch}-tmp`, proxyPort: 9 },
  );
  const probe = run(SANDBOX_EXEC, seatbeltArgs(profile, ['/usr/bin/true']));
  if (probe.status === 0) return { confined: true, tool: 'seatbelt', path: SANDBOX_EXEC };
  const said = `${probe.stderr ?? ''}`.trim().split('\n').slice(-2).join(' ') || String(probe.error ?? probe.signal);
  return {
    confined: false,
    reason: `Seatbelt (sandbox-exec) cannot confine a process here: ${said}`,
    fix: 'sandbox-exec ships with macOS in /usr/bin; if it is missing or refuses, commands run with your rights and every one asks first.',
  };
}

/** Namespaces and lifetime: no network, its own pids, killed with its parent, no terminal to inject into. */
const baseArgs = () => ['--unshare-all', '--die-with-parent', '--new-session'];

const inside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * A folder the caller holds open (a descriptor bwrap inherits as `fd`), to be mounted at its real
 * `path` from the descriptor itself: what was checked is what the process sees there, even if the
 * path was swapped for a link meanwhile.
 */
export interface HeldMount {
  readonly fd: number;
  readonly path: string;
}

/**
 * The bwrap arguments for `rules`, ending with `--` (the program and its arguments follow). Mounts
 * are laid in order, each on top of the ones before: the read-only system, a fresh /tmp, the hidden
 * trees as empty folders, what is put back inside them, the readable and writable folders, the
 * held folders (writable when inside a writable folder), then the read-only and hidden paths inside
 * those. A read-only or hidden path that does not exist is not mounted; where the process could
 * create it, `placeholders` (absentProtected, below) holds its first missing name as an empty
 * read-only folder instead.
 */
export function bwrapArgs(
  rules: ConfinementRules,
  exists: (path: string) => 'file' | 'dir' | undefined,
  held: readonly HeldMount[] = [],
  /** Laid last, over everything else (the network bridge's folder in the private /tmp). */
  extraMounts: readonly string[] = [],
  /** Absent protected names held empty and read-only (absentProtected); their mount points are the caller's to remove. */
  placeholders: readonly string[] = [],
): string[] {
  // /run holds the host's Unix sockets (a D-Bus bus, docker.sock): an empty network namespace does
  // not close those, an empty /run does.
  const args = [
    ...baseArgs(),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--tmpfs',
    '/run',
  ];
  const kept = [...rules.readable, ...rules.writable, ...held.map((folder) => folder.path)];
  for (const tree of rules.hiddenTrees) {
    if (exists(tree) !== 'dir') continue;
    args.push('--tmpfs', tree);
  }
  for (const path of rules.readableInHidden) {
    if (exists(path) === undefined) continue;
    args.push('--ro-bind', path, path);
  }
  for (const path of rules.readable) if (exists(path) !== undefined) args.push('--ro-bind', path, path);
  for (const path of rules.writable) if (exists(path) !== undefined) args.push('--bind', path, path);
  // bwrap closes each descriptor once mounted: the process itself inherits none (see confined-launch.ts).
  for (const { fd, path } of held) {
    const writable = rules.writable.some((folder) => inside(path, folder));
    args.push(writable ? '--bind-fd' : '--ro-bind-fd', String(fd), path);
  }
  for (const path of rules.readOnly) {
    if (!kept.some((folder) => inside(path, folder))) continue;
    if (exists(path) !== undefined) args.push('--ro-bind', path, path);
  }
  for (const path of rules.hidden) hide(args, path, exists(path));
  for (const path of placeholders) hide(args, path, 'dir');
  // A hidden tree left empty is writable tmpfs: make it read-only so writes there fail loudly,
  // unless the rules leave it as the process's scratch folder.
  const scratch = rules.scratchTrees ?? [];
  for (const tree of rules.hiddenTrees) {
    if (exists(tree) !== 'dir' || scratch.includes(tree)) continue;
    if (!kept.some((folder) => inside(tree, folder))) args.push('--remount-ro', tree);
  }
  args.push(...extraMounts, '--chdir', rules.cwd, '--');
  return args;
}

/**
 * The read-only and hidden paths that do not exist but that the process could create, because they
 * lie inside a folder it may write: for each, its first missing name (`.git` for `.git/hooks` in a
 * folder with no `.git`). bwrap can mount only over a name that exists, so the caller holds each as
 * an empty read-only folder (bwrap makes the mount point on the host, an empty folder; the caller
 * removes it when the process is gone). A folder and not a file: git ignores empty folders, so a
 * command's `git add -A` commits nothing of it, and writing the name fails ("Is a directory").
 * Skipped where nothing can be created (under a file, or in a folder this user may not write):
 * the process cannot create the name either, and bwrap would fail to start.
 */
export function absentProtected(
  rules: Pick<ConfinementRules, 'writable' | 'readOnly' | 'hidden'>,
  exists: (path: string) => 'file' | 'dir' | undefined,
  canCreateIn: (folder: string) => boolean,
  held: readonly HeldMount[] = [],
): string[] {
  const writable = [...rules.writable, ...held.map((mount) => mount.path)].filter(
    (folder) => rules.writable.some((root) => inside(folder, root)) && exists(folder) === 'dir',
  );
  const found = new Set<string>();
  for (const path of [...rules.readOnly, ...rules.hidden]) {
    if (exists(path) !== undefined) continue;
    const folder = writable.find((root) => inside(path, root) && root !== path);
    if (folder === undefined) continue;
    let current = folder;
    for (const name of relative(folder, path).split(sep)) {
      const next = join(current, name);
      const kind = exists(next);
      if (kind === undefined) {
        // A folder with no repository stays free for `git init` (a command's own new repository is
        // its to shape, as its Makefile is); an existing repository's hooks and config stay protected.
        if (name !== '.git' && canCreateIn(current)) found.add(next);
        break;
      }
      if (kind === 'file') break;
      current = next;
    }
  }
  return [...found];
}

/**
 * A path the process must not read: a folder becomes an empty read-only folder, a file an empty
 * read-only one (bwrap cannot take a name away from a folder it shows, so the name stays, with
 * nothing behind it).
 */
function hide(args: string[], path: string, kind: 'file' | 'dir' | undefined): void {
  if (kind === 'dir') args.push('--tmpfs', path, '--remount-ro', path);
  else if (kind === 'file') args.push('--ro-bind', '/dev/null', path);
}

/**
 * The user's home and what a command needs from it: toolchains and their caches, read-only. Every
 * folder on PATH under the home is put back too (a tool the user installed there).
 */
export function homeToolchains(home = homedir(), path = process.env['PATH'] ?? ''): string[] {
  const named = [
    '.nvm',
    '.volta',
    '.fnm',
    '.asdf',
    '.cargo',
    '.rustup',
    '.pyenv',
    '.rbenv',
    '.sdkman',
    '.local/bin',
    '.local/lib',
    '.local/share/pnpm',
    '.deno',
    '.bun',
    'go',
    '.npm',
    '.cache/pip',
    '.cache/yarn',
    '.m2',
    '.gradle',
    '.gitconfig',
    '.config/git',
    '.npmrc',
    '.gitignore_global',
  ].map((name) => join(home, ...name.split('/')));
  const onPath = path.split(delimiter).filter((dir) => isAbsolute(dir) && inside(dir, home) && dir !== home);
  return [...new Set([...named, ...onPath])];
}

/** Where Familiar itself runs from (the package with its node_modules, the Node binary): servers start from there. */
export function appFolders(): string[] {
  let root = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  // A packaged app's binaries live beside app.asar, unpacked, and its extraResources (the language
  // servers, ripgrep) in the folder holding it: on macOS that is Contents/Resources, not beside the executable.
  const unpacked = root.endsWith('.asar') ? [`${root}.unpacked`, dirname(root)] : [];
  return [...new Set([dirname(process.execPath), root, ...unpacked])];
}
