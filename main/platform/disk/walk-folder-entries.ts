import type * as fs from 'node:fs';
import type { AnchoredFs, DirRef } from './anchored-fs';
import { personaEntries, personaEntryOf } from './persona-names';
import type { EntryKind } from './resolved-path';
import type { OpenedFirst } from './walk-opened-files';

/** An entry the walk knows without a listing's record: looked up by its name. */
export class NamedEntry {
  constructor(
    readonly name: string,
    readonly kind: EntryKind,
  ) {}
}

/** A root entry of the persona overlay: it comes from the persona folder (lstat there). */
export class PersonaEntry extends NamedEntry {}

/**
 * A folder's entry as readdir gave it (kept as is: one object per entry fewer than a copy, on a
 * walk that makes a handful per entry and spends a sixth of its time collecting them), or one
 * known by name.
 */
export type DirEntry = fs.Dirent | NamedEntry;

/** What a walk reads of one folder: its entries, and whether it holds a .gitignore to read. */
export interface FolderEntries {
  readonly entries: DirEntry[];
  readonly hasGitignore: boolean;
}

export const compareNames = (a: DirEntry, b: DirEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export const kindOfStats = (stats: fs.Stats): EntryKind =>
  stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'symlink' : 'special';

export const kindOfEntry = (entry: DirEntry): EntryKind =>
  entry instanceof NamedEntry
    ? entry.kind
    : entry.isFile()
      ? 'file'
      : entry.isDirectory()
        ? 'directory'
        : entry.isSymbolicLink()
          ? 'symlink'
          : 'special';

/**
 * At most this many wanted names in a folder are looked up one by one (an lstat each, ~3 µs)
 * rather than picked out of its listing (25-75 µs for a folder of a few dozen names, and an object
 * per name): a rare word's candidates are one or two a folder (issue 32: the first search).
 */
export const LOOK_UP_AT_MOST = 8;

/**
 * The entries of `dir` by its listing, sorted (only those `wanted`, when given), and whether it has
 * a .gitignore (looked for before `wanted` drops names). `overlay`: the persona folder, whose
 * entries shadow the project's own persona names (the workspace root). Undefined when the folder
 * cannot be read.
 */
export function listEntries(
  anchored: AnchoredFs,
  dir: DirRef,
  wanted: ReadonlySet<string> | undefined,
  overlay: DirRef | undefined,
): FolderEntries | undefined {
  let listed: fs.Dirent[];
  try {
    listed = anchored.readdir(dir);
  } catch {
    return undefined; // vanished or unreadable while walking: nothing to show
  }
  const hasGitignore = listed.some((entry) => entry.name === '.gitignore' && entry.isFile());
  let entries: DirEntry[] = wanted === undefined ? listed : listed.filter((entry) => wanted.has(entry.name));
  if (overlay !== undefined) {
    entries = entries.filter((entry) => personaEntryOf(entry.name) === undefined);
    for (const name of personaEntries) {
      if (wanted !== undefined && !wanted.has(name)) continue;
      const stats = anchored.lstat(overlay, name);
      if (stats !== undefined) entries.push(new PersonaEntry(name, kindOfStats(stats)));
    }
  }
  return { entries: entries.sort(compareNames), hasGitignore };
}

/** A name a folder can hold: '.' and '..' would look up the folder itself or its parent. */
const isEntryName = (name: string) => name !== '' && name !== '.' && name !== '..' && !/[/\0]/.test(name);

/**
 * The entries of `dir` among `wanted`, by a lookup of each name instead of a listing (`only`): the
 * same entries a listing filtered to those names gives, in the walk's order. A file `opened` (a
 * regular file at its fstat) is not looked up again. Undefined when the folder cannot be read.
 */
export function lookUpEntries(
  anchored: AnchoredFs,
  dir: DirRef,
  wanted: ReadonlySet<string>,
  opened: OpenedFirst | undefined,
): FolderEntries | undefined {
  const entries: DirEntry[] = [];
  let hasGitignore = false;
  try {
    for (const name of wanted) {
      if (!isEntryName(name)) continue;
      const kind = opened?.has(name) === true ? 'file' : kindOrUndefined(anchored.lstat(dir, name));
      if (kind !== undefined) entries.push(new NamedEntry(name, kind));
      if (name === '.gitignore') hasGitignore = kind === 'file';
    }
    if (!wanted.has('.gitignore')) hasGitignore = anchored.lstat(dir, '.gitignore')?.isFile() === true;
  } catch {
    return undefined; // unreadable or gone while walking, as a listing that failed
  }
  return { entries: entries.sort(compareNames), hasGitignore };
}

const kindOrUndefined = (stats: fs.Stats | undefined) => (stats === undefined ? undefined : kindOfStats(stats));
