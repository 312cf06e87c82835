import type * as fs from 'node:fs';
import type { AnchoredFs, DirRef } from './anchored-fs';
import { isEntryName } from './path-syntax';
import { personaEntries, personaEntryOf } from './persona-names';
import { kindOf } from './resolved-path';
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
  /** Read by a listing (which takes the folder's lock), not name by name. */
  readonly listed: boolean;
}

export const compareNames = (a: DirEntry, b: DirEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The walk's order of two workspace paths: depth-first, names sorted by UTF-16 code units in each folder. */
export function walkOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A folder's name ends where its path continues: 'a/x' comes before 'a-b' ('/' sorts after '-').
    if (x === 47) return -1;
    if (y === 47) return 1;
    return x - y;
  }
  return a.length - b.length;
}

export const kindOfEntry = (entry: DirEntry): EntryKind => (entry instanceof NamedEntry ? entry.kind : kindOf(entry));

/**
 * A folder whose wanted names leave at most this many to look up (besides .gitignore; a file
 * opened first is known already) is read name by name instead of listed. Measured through
 * /proc/self/fd: an lstat costs ~4 µs (~3.3 µs for a name that is not there), a listing ~8.6 µs
 * plus ~0.3 µs a name (~25 µs for 50), and an object per name. A rare word's candidates are one or
 * two a folder, opened first, under folders on the way that each want one name (issue 32: the
 * first search); a common word's fill most folders, which are listed.
 */
export const LOOK_UP_AT_MOST = 1;

/** Would the folder wanting `wanted`, with `opened` known, be read name by name (LOOK_UP_AT_MOST)? */
export function fewToLookUp(wanted: ReadonlySet<string>, opened: OpenedFirst | undefined): boolean {
  let left = LOOK_UP_AT_MOST;
  for (const name of wanted) {
    if (opened?.has(name) === true) continue;
    if (left === 0) return false;
    left -= 1;
  }
  return true;
}

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
      if (stats !== undefined) entries.push(new PersonaEntry(name, kindOf(stats)));
    }
  }
  return { entries: entries.sort(compareNames), hasGitignore, listed: true };
}

/**
 * The entries of `dir` among `wanted`, by a lookup of each name instead of a listing (`only`): the
 * entries a listing filtered to those names gives, in the walk's order, as each name was when looked
 * up. A file `opened` is taken as it was at its open (a regular file by its fstat), not looked up
 * again; the walk then hands it over only as walk-opened-files.ts allows. Undefined when a lookup
 * fails for another reason than the name's absence (EACCES: the folder shows nothing, as a listing
 * that failed).
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
  return { entries: entries.sort(compareNames), hasGitignore, listed: false };
}

const kindOrUndefined = (stats: fs.Stats | undefined) => (stats === undefined ? undefined : kindOf(stats));
