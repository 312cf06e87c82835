import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * ripgrep's executable when it is on PATH (never a bundled binary: what the user installed is what
 * runs), or undefined. Looked up once per process: PATH rarely changes while the app runs.
 */
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

let located: { path: string | undefined } | undefined;

/** `rg` on PATH, looked up on first use. */
export function ripgrepOnPath(): string | undefined {
  located ??= { path: findOnPath('rg') };
  return located.path;
}
