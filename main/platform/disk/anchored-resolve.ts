import type { Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { AnchoredFs, DirRef } from './anchored-fs';

/** Linux gives up after 40 symlink hops (ELOOP); so do we. */
const maxHops = 40;
/** A name that keeps changing kind under the walk (a swap in progress) is looked at this often, then refused. */
const maxRetries = 64;

/** The entry changed between our lstat and our use of it: look at it again. */
const changedMeanwhile = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EINVAL' || code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
};

/** What a look at a name answers when the name changed under it and was queued to be looked at again. */
const lookAgain = Symbol('look again');

/** A folder everything is resolved beneath: the open workspace, or the persona folder. */
export interface AnchorRoot {
  readonly dir: DirRef;
  /** Absolute spellings of the root that an absolute symlink target may use (as configured, real). */
  readonly spellings: readonly string[];
}

/** Folders no walk may enter: Familiar's own data, by identity (dev:ino), whatever their name. */
export type IsProtected = (dev: number, ino: number) => boolean;

export type Resolution =
  /** `stats` undefined: nothing is there (yet); `realRel` is where a creation would land. */
  | { readonly kind: 'found'; readonly realRel: string; readonly stats: Stats | undefined }
  /** A symlink leads out of the root; `link` is its root-relative name. */
  | { readonly kind: 'escape'; readonly link: string }
  | { readonly kind: 'loop' }
  | { readonly kind: 'parent_not_directory'; readonly at: string }
  /** The path crosses one of Familiar's own folders. */
  | { readonly kind: 'protected'; readonly at: string };

/** True when `path` is `root` or below it; whole segments, never a string prefix. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** The root-relative components of an absolute symlink target, or undefined when it is outside. */
function insideRoot(root: AnchorRoot, target: string): string[] | undefined {
  for (const spelling of root.spellings) {
    if (!isInside(spelling, target)) continue;
    const rel = relative(spelling, target);
    return rel === '' ? [] : rel.split(/[\\/]/);
  }
  return undefined;
}

/**
 * Where `relPath` really is beneath `root`, found the way the kernel would, but one component at a
 * time from the root's descriptor: every folder is opened with O_NOFOLLOW relative to its parent,
 * a symlink is read and its target walked the same way (relative targets from the link's folder,
 * absolute ones only when they name a place inside the root), and `..` never climbs above the root.
 * So no swap can make the walk leave the root: at worst it answers what is inside, or fails.
 *
 * `followFinal: false` stops at a final symlink (delete, move, info act on the link itself).
 * Throws OS errors (EACCES, and ELOOP/ENOTDIR when a folder turns into a symlink mid-walk).
 */
export function resolveBeneath(
  anchored: AnchoredFs,
  root: AnchorRoot,
  relPath: string,
  followFinal: boolean,
  isProtected: IsProtected,
): Resolution {
  const pending = relPath === '' ? [] : relPath.split('/').reverse();
  const names: string[] = [];
  const dirs: DirRef[] = [];
  const top = () => dirs[dirs.length - 1] ?? root.dir;
  let hops = 0;
  let retries = 0;
  // The name was a symlink (or a folder) at lstat time and is not any more: retry it, a bounded number
  // of times. Whatever it is at the next look is what the walk goes by; nothing is followed blindly.
  // `look` is the step that trusted the lstat (readlink, openDir); `lookAgain` means the name is queued.
  const unlessChanged = <T>(name: string, look: () => T): T | typeof lookAgain => {
    try {
      return look();
    } catch (error) {
      if (!changedMeanwhile(error) || retries >= maxRetries) throw error;
      retries += 1;
      pending.push(name);
      return lookAgain;
    }
  };
  try {
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (names.length === 0) return { kind: 'escape', link: relPath };
        names.pop();
        anchored.close(dirs.pop()!);
        continue;
      }
      const last = pending.length === 0;
      const dir = top();
      const stats = anchored.lstat(dir, name);
      if (stats === undefined) {
        // Nothing here: the rest is what a creation would make. A '..' after a missing folder has no
        // meaning the kernel would give it either.
        const rest = [...pending].reverse().filter((part) => part !== '' && part !== '.');
        if (rest.includes('..')) return { kind: 'parent_not_directory', at: [...names, name].join('/') };
        return { kind: 'found', realRel: [...names, name, ...rest].join('/'), stats: undefined };
      }
      if (stats.isSymbolicLink() && (!last || followFinal)) {
        hops += 1;
        if (hops > maxHops) return { kind: 'loop' };
        const target = unlessChanged(name, () => anchored.readlink(dir, name));
        if (target === lookAgain) continue;
        let parts: string[];
        if (isAbsolute(target)) {
          const within = insideRoot(root, target);
          if (within === undefined) return { kind: 'escape', link: [...names, name].join('/') };
          for (const open of dirs.splice(0)) anchored.close(open);
          names.length = 0;
          parts = within;
        } else {
          parts = target.split(/[\\/]/);
        }
        for (let i = parts.length - 1; i >= 0; i -= 1) pending.push(parts[i]!);
        continue;
      }
      if (last) {
        if (stats.isDirectory() && isProtected(stats.dev, stats.ino)) {
          return { kind: 'protected', at: [...names, name].join('/') };
        }
        return { kind: 'found', realRel: [...names, name].join('/'), stats };
      }
      if (!stats.isDirectory()) return { kind: 'parent_not_directory', at: [...names, name].join('/') };
      const next = unlessChanged(name, () => anchored.openDir(dir, name));
      if (next === lookAgain) continue;
      dirs.push(next);
      names.push(name);
      if (isProtected(next.dev, next.ino)) return { kind: 'protected', at: names.join('/') };
    }
    // The path ends at a folder already open (the root, or where '..' or a link to '.' led).
    const stats = anchored.stat(top());
    return { kind: 'found', realRel: names.join('/'), stats };
  } finally {
    for (const open of dirs) anchored.close(open);
  }
}

/**
 * Opens the folder that holds `realRel` (a name `resolveBeneath` answered) WITHOUT following any
 * symlink: if any folder on the way was swapped for a link since, this throws instead of going
 * where the link leads. The caller closes the folder (`release`), unless it is the root itself.
 */
export function openParentStrict(
  anchored: AnchoredFs,
  root: AnchorRoot,
  realRel: string,
  isProtected: IsProtected,
): { readonly dir: DirRef; readonly name: string; release(): void } {
  const parts = realRel === '' ? [] : realRel.split('/');
  const name = parts.pop() ?? '';
  let dir = root.dir;
  try {
    for (const part of parts) {
      const next = anchored.openDir(dir, part);
      if (dir !== root.dir) anchored.close(dir);
      dir = next;
      if (isProtected(dir.dev, dir.ino)) {
        throw Object.assign(new Error(`'${realRel}' crosses Familiar's own data`), { code: 'EACCES' });
      }
    }
  } catch (error) {
    if (dir !== root.dir) anchored.close(dir);
    throw error;
  }
  const held = dir;
  return { dir: held, name, release: () => (held === root.dir ? undefined : anchored.close(held)) };
}

/** Opens the folder `realRel` itself strictly (see openParentStrict); the root is answered as is. */
export function openDirStrict(
  anchored: AnchoredFs,
  root: AnchorRoot,
  realRel: string,
  isProtected: IsProtected,
): { readonly dir: DirRef; release(): void } {
  if (realRel === '') return { dir: root.dir, release: () => undefined };
  const parent = openParentStrict(anchored, root, realRel, isProtected);
  try {
    const dir = anchored.openDir(parent.dir, parent.name);
    if (isProtected(dir.dev, dir.ino)) {
      anchored.close(dir);
      throw Object.assign(new Error(`'${realRel}' is Familiar's own data`), { code: 'EACCES' });
    }
    return { dir, release: () => anchored.close(dir) };
  } finally {
    parent.release();
  }
}
