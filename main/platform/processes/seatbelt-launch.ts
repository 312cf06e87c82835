import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ConfinementRules } from './launch-types';
import type { Launch, LaunchRequest } from './launch-types';
import { seatbeltArgs, seatbeltProfile } from './seatbelt-profile';

/**
 * How a confined child starts on macOS: `sandbox-exec -p <profile> -- program args`, the profile
 * made from the same rules bwrap gets on Linux (process-rules.ts). What differs, and why:
 * - The temporary folder is a fresh private one per process (mkdtemp, 0700), writable, removed when
 *   the child is gone: Seatbelt cannot give a process an empty /tmp of its own as bwrap does.
 * - A scratch tree (a language server's home) cannot be an empty folder at the home's path either:
 *   HOME points into that private folder instead, and the real home stays hidden.
 * - The network needs no socat: the profile lets the process reach only the proxy's loopback port
 *   (network-bridge.ts, openLoopbackBridge); the proxy variables point there.
 * - Descriptors the caller holds are not translated (no /proc/self/fd on macOS; nothing passes
 *   them there today: ripgrep's descriptor walk is Linux only).
 *
 * NOT YET RUN ON A MAC: verified by the tests of its argv and profile (seatbelt-launch.test.ts).
 */
export interface SeatbeltHost {
  /** The real path of a name, or of its deepest existing folder with the rest appended (Seatbelt matches real paths). */
  readonly canonical: (path: string) => string;
  readonly exists: (path: string) => 'file' | 'dir' | undefined;
  /** Makes the process's private temporary folder, with an empty `home` in it; returns its real path. */
  readonly makeTempDir: () => string;
  readonly removeTempDir: (path: string) => void;
}

export function seatbeltLaunch(request: LaunchRequest, sandboxExec: string, host: SeatbeltHost = macHost): Launch {
  const confinement = request.confinement!;
  const canon = (paths: readonly string[]) => [...new Set(paths.map(host.canonical))];
  const rules: ConfinementRules = {
    writable: canon(confinement.writable),
    readable: canon(confinement.readable),
    readOnly: canon(confinement.readOnly),
    hidden: canon(confinement.hidden),
    hiddenTrees: canon(confinement.hiddenTrees),
    readableInHidden: canon(confinement.readableInHidden),
    ...(confinement.scratchTrees === undefined ? {} : { scratchTrees: canon(confinement.scratchTrees) }),
    cwd: request.cwd,
  };
  const tempDir = host.makeTempDir();
  const scratchHome = (confinement.scratchTrees ?? []).length > 0 ? { HOME: join(tempDir, 'home') } : {};
  let profile: string;
  try {
    profile = seatbeltProfile(rules, {
      exists: host.exists,
      tempDir,
      ...(request.bridge?.loopbackPort === undefined ? {} : { proxyPort: request.bridge.loopbackPort }),
    });
  } catch (error) {
    host.removeTempDir(tempDir);
    throw error;
  }
  const program = request.shell ? ['/bin/sh', '-c', request.file] : [request.file, ...request.args];
  let released = false;
  return {
    file: sandboxExec,
    args: seatbeltArgs(profile, program),
    shell: false,
    cwd: request.cwd,
    environment: {
      ...request.environment,
      set: {
        ...request.environment.set,
        TMPDIR: tempDir,
        TMP: tempDir,
        TEMP: tempDir,
        ...scratchHome,
        ...request.bridge?.environment,
      },
    },
    confined: true,
    release: () => {
      if (released) return;
      released = true;
      host.removeTempDir(tempDir);
    },
  };
}

/** The real path of `path`, resolving its deepest existing folder when the name itself is absent. */
export function canonicalPath(path: string, real: (path: string) => string = realpathSync): string {
  try {
    return real(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(canonicalPath(parent, real), basename(path));
  }
}

const macHost: SeatbeltHost = {
  canonical: (path) => canonicalPath(path),
  exists: (path) => {
    try {
      const stats = statSync(path, { throwIfNoEntry: false });
      return stats === undefined ? undefined : stats.isDirectory() ? 'dir' : 'file';
    } catch {
      return undefined;
    }
  },
  makeTempDir: () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'familiar-proc-')));
    mkdirSync(join(dir, 'home'));
    return dir;
  },
  removeTempDir: (path) => rmSync(path, { recursive: true, force: true }),
};
