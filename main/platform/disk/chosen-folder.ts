import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { isInside } from './anchored-resolve';

const expandHome = (path: string) => (path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path);

/**
 * The USER choosing a folder to work in (a typed path, a picker, the saved setting): the one place
 * that looks at an absolute path outside any workspace, to decide what becomes the next root. It
 * answers the folder's real path; the sandbox then holds that folder open and works beneath it.
 */
export async function checkChosenFolder(
  raw: string,
  familiar: { readonly home: string; readonly personaDir: string },
): Promise<Result<string>> {
  const chosen = expandHome(raw.trim());
  if (!isAbsolute(chosen)) return err('invalid_path', `'${raw}' is not an absolute folder path.`);
  const real = await realpath(chosen).catch(() => null);
  if (real === null) return err('file_not_found', `'${raw}' does not exist.`);
  const stats = await stat(real).catch(() => null);
  if (stats?.isDirectory() !== true) return err('not_a_directory', `'${raw}' is a file, not a folder.`);
  const [home, personaDir] = await Promise.all([
    realpath(familiar.home).catch(() => familiar.home),
    realpath(familiar.personaDir).catch(() => familiar.personaDir),
  ]);
  if (real !== personaDir && isInside(home, real)) {
    return err('permission_denied', `'${raw}' is inside Familiar's own data folder; choose another folder.`);
  }
  return ok(real);
}

/** The real path of one of Familiar's own folders (the home, the persona folder). */
export const realFolder = (path: string): Promise<string> => realpath(path);
