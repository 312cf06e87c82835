import type { Stats } from 'node:fs';

/** What a resolved workspace path is, shared by the sandbox façade and the parts it is built from. */

export type EntryKind = 'file' | 'directory' | 'symlink' | 'special';

export interface EntryFacts {
  readonly kind: EntryKind;
  readonly size: number;
  readonly mtimeMs: number;
  /** Changes with every write and cannot be set back (unlike mtime): part of "is it still the same". */
  readonly ctimeMs: number;
  readonly mode: number;
  readonly dev: number;
  readonly ino: number;
  /** Hard links to the entry: a regular file with more than one may share its content with one outside. */
  readonly nlink: number;
}

/** Which folder a path lives in: the open workspace, or the persona folder (the overlay). */
export type RootName = 'workspace' | 'persona';

export interface ResolvedPath {
  /** Normalized workspace-relative path as asked ('' = root). */
  readonly relPath: string;
  /** What to call it in messages ('.' for the root). */
  readonly display: string;
  /** True when the persona overlay sent it into the persona folder. */
  readonly inPersona: boolean;
  /**
   * The entry's real name in its folder once symlinks inside the workspace are followed (with
   * followFinal:false a final symlink is the entry itself). The name policy decides on, and the name
   * every operation walks again, strictly, without following anything.
   */
  readonly realRel: string;
  /** One key per real entry: for write locks and read tracking. Never a path to open. */
  readonly key: string;
  /** The entry's facts, or undefined when nothing is there yet. */
  readonly facts: EntryFacts | undefined;
}

/** The kind of an entry as lstat or a listing (a Dirent) tells it. */
export const kindOf = (entry: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink'>): EntryKind =>
  entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'special';

export function factsOf(stats: Stats): EntryFacts {
  return {
    kind: kindOf(stats),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    mode: stats.mode,
    dev: stats.dev,
    ino: stats.ino,
    nlink: stats.nlink,
  };
}
