import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The first executable of that name on PATH (PATHEXT on Windows), or undefined. */
export function findOnPath(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  if (isAbsolute(name)) return executable(name) ? name : undefined;
  const extensions =
    process.platform === 'win32' ? (process.env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';').concat('') : [''];
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    for (const extension of extensions) {
      const candidate = join(dir, name + extension);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** This user may run `file` (on Windows: it exists). */
export const executable = (file: string): boolean =>
  hasAccess(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);

/** True when this user may access `path` as `mode` (fs `constants` R_OK, W_OK, X_OK or F_OK); any error is a no. */
export function hasAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
