import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Linux gives up after 40 symlink hops (ELOOP); so do we. */
const maxHops = 40;

/** True when `path` is `root` or below it. Both absolute and normalized; no string-prefix test. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  // A name like '..foo' starts with '..' but is not a step up: compare whole segments.
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

export type RealLocation =
  | { readonly kind: 'found'; readonly real: string; readonly exists: boolean }
  | { readonly kind: 'loop' }
  | { readonly kind: 'parent_not_directory'; readonly real: string };

/**
 * Where `abs` really is: the realpath of an existing path; for one that does not exist yet, the
 * realpath of its nearest existing ancestor plus the rest, with dangling symlinks followed to where a
 * creation would land (a dangling `x -> /etc/cron.d/job` must count as outside, not as "new file x").
 */
export async function realLocation(abs: string, hops = 0): Promise<RealLocation> {
  if (hops > maxHops) return { kind: 'loop' };
  try {
    return { kind: 'found', real: await realpath(abs), exists: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { kind: 'loop' };
    if (code === 'ENOTDIR') return { kind: 'parent_not_directory', real: abs };
    if (code !== 'ENOENT') throw error;
  }
  const entry = await lstat(abs).catch(() => undefined);
  const parent = dirname(abs);
  if (entry?.isSymbolicLink() === true) {
    // A dangling link: resolve its target against the link's real folder and keep going.
    const parentLocation = await realLocation(parent, hops + 1);
    if (parentLocation.kind !== 'found') return parentLocation;
    return realLocation(resolve(parentLocation.real, await readlink(abs)), hops + 1);
  }
  if (parent === abs) return { kind: 'found', real: abs, exists: false };
  const parentLocation = await realLocation(parent, hops);
  if (parentLocation.kind !== 'found') return parentLocation;
  return { kind: 'found', real: join(parentLocation.real, basename(abs)), exists: false };
}

/** The realpath of a folder, or its plain absolute form when it does not exist (yet). */
export const realOrResolved = (path: string): Promise<string> => realpath(path).catch(() => resolve(path));
