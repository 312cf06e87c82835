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

function executable(file: string): boolean {
  try {
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
