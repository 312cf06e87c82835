import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** A program's executable on PATH (absolute entries only), or undefined. */
export function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const path = env['PATH'] ?? env['Path'] ?? '';
  const names = platform === 'win32' ? [`${name}.exe`] : [name];
  for (const dir of path.split(delimiter)) {
    // A relative PATH entry ('.', '') would run whatever the workspace plants there.
    if (dir === '' || !isAbsolute(dir)) continue;
    for (const candidate of names) {
      const full = join(dir, candidate);
      try {
        if (!statSync(full).isFile()) continue;
        accessSync(full, constants.X_OK);
        return full;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

/** Where the packaged app keeps its ripgrep (electron-builder.yml: extraResources, scripts/ripgrep). */
export function bundledRipgrepPath(resourcesDir: string, platform: NodeJS.Platform = process.platform): string {
  return join(resourcesDir, 'ripgrep', platform === 'win32' ? 'rg.exe' : 'rg');
}

export interface RipgrepLookup {
  /** The packaged app's resources folder (Electron's process.resourcesPath, passed in by its adapter); undefined elsewhere. */
  readonly resourcesDir?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  /** True when `path` is an executable file (tests give their own). */
  readonly isExecutable?: (path: string) => boolean;
}

const executableFile = (path: string): boolean => {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * ripgrep for search_in_code: the binary the packaged app ships first (a known, pinned version
 * whose sha256 the release checked), then `rg` on PATH (a development checkout, or a package that
 * was built without one), else undefined (the JS engine searches).
 */
export function locateRipgrep(lookup: RipgrepLookup = {}): { path: string; source: 'bundled' | 'path' } | undefined {
  const platform = lookup.platform ?? process.platform;
  if (lookup.resourcesDir !== undefined) {
    const bundled = bundledRipgrepPath(lookup.resourcesDir, platform);
    if ((lookup.isExecutable ?? executableFile)(bundled)) return { path: bundled, source: 'bundled' };
  }
  const onPath = findOnPath('rg', lookup.env ?? process.env, platform);
  return onPath === undefined ? undefined : { path: onPath, source: 'path' };
}

let located: { path: string | undefined } | undefined;

/** `rg` on PATH, looked up on first use (tests; the app asks locateRipgrep with its resources folder). */
export function ripgrepOnPath(): string | undefined {
  located ??= { path: findOnPath('rg') };
  return located.path;
}
