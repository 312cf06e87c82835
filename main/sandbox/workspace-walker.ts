import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { join, sep } from 'node:path';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { isIgnored, parseGitignore } from './gitignore-rules';
import type { IgnoreFrame } from './gitignore-rules';
import { joinRel } from './path-syntax';
import type { EntryKind, ResolvedPath, WorkspaceSandbox } from './workspace-sandbox';
import { personaEntries, personaEntryOf } from './workspace-sandbox';

export interface WalkEntry {
  /** Workspace-relative path. */
  readonly relPath: string;
  readonly name: string;
  /** Absolute path on disk (inside the persona folder for overlay entries). */
  readonly abs: string;
  readonly kind: EntryKind;
  /** 1 for the start folder's children. */
  readonly depth: number;
}

/** What the visitor wants next: go on, do not descend into this folder, or end the walk. */
export type WalkStep = 'continue' | 'skip' | 'stop';

export interface WalkOptions {
  readonly recursive: boolean;
  readonly includeHidden: boolean;
  /**
   * Every entry, with no hidden/.gitignore/.git/node_modules filtering and no concealment: for
   * checks over a whole subtree (what a recursive delete or move would take along), never for output.
   */
  readonly unfiltered?: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly visit: (entry: WalkEntry) => WalkStep;
}

/** Folders nobody wants listed or searched unless they ask for them by path. */
const builtInIgnores = new Set(['.git', 'node_modules']);

const maxGitignoreBytes = 1024 * 1024;

/** How long the walk may hold the event loop before letting IPC and timers run. */
const sliceMs = 8;

interface Frame {
  readonly relPath: string;
  readonly abs: string;
  readonly depth: number;
  readonly inPersona: boolean;
  readonly ignores: readonly IgnoreFrame[];
  readonly entries: readonly DirEntry[];
  index: number;
}

/** A directory entry: node's Dirent as read, or the persona overlay's own for merged entries. */
type DirEntry = Pick<Dirent, 'name' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>;

const compareNames = (a: DirEntry, b: DirEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const kindOf = (entry: DirEntry): EntryKind =>
  entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'special';

function readEntries(abs: string): DirEntry[] | undefined {
  try {
    return readdirSync(abs, { withFileTypes: true });
  } catch {
    return undefined; // vanished or unreadable while walking: nothing to show
  }
}

/**
 * Walks the workspace as the assistant sees it, depth-first in sorted order (so a capped result is
 * the first N paths): the persona overlay at the root, .gitignore files at every level (and above the
 * start folder), hidden names and .git/node_modules skipped unless asked for, memory files concealed
 * while memory is off, symlinks reported but never followed. Synchronous directory reads in slices
 * of a few milliseconds: faster than async fs for many small folders, and the event loop still runs.
 */
export async function walkWorkspace(
  sandbox: WorkspaceSandbox,
  start: ResolvedPath,
  options: WalkOptions,
): Promise<Result<{ stopped: boolean }>> {
  if (start.facts?.kind !== 'directory') {
    return err('not_a_directory', `'${start.display}' is not a folder.`);
  }
  const startSegments = start.relPath === '' ? [] : start.relPath.split('/');
  const asked = new Set(startSegments.filter((segment) => builtInIgnores.has(segment)));
  const overlayActive = sandbox.workspaceRoot !== sandbox.personaDir;

  // Rules from .gitignore files above the start folder, unless they exclude the start folder itself:
  // a folder the user asked for by path is listed even when git ignores it.
  let inherited: IgnoreFrame[] = [];
  if (!start.inPersona) {
    for (let depth = 0; depth < startSegments.length; depth += 1) {
      const dirRel = startSegments.slice(0, depth).join('/');
      const text = readGitignoreAt(sandbox.locate(dirRel).abs);
      if (text !== undefined) inherited.push(parseGitignore(dirRel, text));
    }
    if (start.relPath !== '' && isIgnored(inherited, start.relPath, true)) inherited = [];
  }

  const stack: Frame[] = [];
  const open = (
    relPath: string,
    abs: string,
    depth: number,
    inPersona: boolean,
    ignores: readonly IgnoreFrame[],
  ): void => {
    let entries = readEntries(abs);
    if (entries === undefined) return;
    if (relPath === '' && overlayActive && !inPersona) {
      // The persona overlay: the project's own persona names are shadowed by the persona folder's.
      entries = entries.filter((entry) => personaEntryOf(entry.name) === undefined);
      for (const name of personaEntries) {
        const stats = lstatSync(join(sandbox.personaDir, name), { throwIfNoEntry: false });
        if (stats !== undefined) {
          entries.push({
            name,
            isFile: () => stats.isFile(),
            isDirectory: () => stats.isDirectory(),
            isSymbolicLink: () => stats.isSymbolicLink(),
          });
        }
      }
    }
    entries.sort(compareNames);
    const hasGitignore = !inPersona && entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
    const gitignore = hasGitignore ? readGitignoreAt(abs) : undefined;
    const frames = gitignore === undefined ? ignores : [...ignores, parseGitignore(relPath, gitignore)];
    stack.push({ relPath, abs, depth, inPersona, ignores: frames, entries, index: 0 });
  };

  open(start.relPath, start.real, 1, start.inPersona, inherited);
  let sliceStart = performance.now();
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const entry = frame.entries[frame.index];
    if (entry === undefined) {
      stack.pop();
      // Checked once per folder, not per entry: cheap enough, and folders are small time units.
      if (performance.now() - sliceStart > sliceMs) {
        await yieldToLoop();
        if (options.signal?.aborted === true) return err('aborted', 'The walk was stopped.');
        sliceStart = performance.now();
      }
      continue;
    }
    frame.index += 1;
    const relPath = joinRel(frame.relPath, entry.name);
    const isPersonaRoot =
      frame.relPath === '' && overlayActive && !frame.inPersona && personaEntryOf(entry.name) !== undefined;
    const inPersona = frame.inPersona || isPersonaRoot;
    const abs = isPersonaRoot ? join(sandbox.personaDir, entry.name) : `${frame.abs}${sep}${entry.name}`;
    const kind = kindOf(entry);
    if (options.unfiltered !== true && sandbox.isConcealed(relPath)) continue;
    // Familiar's own data (and the persona folder under another name) never shows up in a walk.
    if (
      options.unfiltered !== true &&
      kind === 'directory' &&
      (abs === sandbox.protectedDir || (overlayActive && !inPersona && abs === sandbox.personaDir))
    )
      continue;
    if (!inPersona && options.unfiltered !== true) {
      if (entry.name.startsWith('.') && !options.includeHidden) continue;
      if (builtInIgnores.has(entry.name) && !asked.has(entry.name)) continue;
      if (isIgnored(frame.ignores, relPath, kind === 'directory')) continue;
    }
    const step = options.visit({ relPath, name: entry.name, abs, kind, depth: frame.depth });
    if (step === 'stop') return ok({ stopped: true });
    if (step === 'continue' && kind === 'directory' && options.recursive)
      open(relPath, abs, frame.depth + 1, inPersona, frame.ignores);
  }
  return ok({ stopped: false });
}

/** A .gitignore that is a regular file of sane size (a FIFO planted there must not hang the walk). */
function readGitignoreAt(dirAbs: string): string | undefined {
  const path = join(dirAbs, '.gitignore');
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats?.isFile() !== true || stats.size > maxGitignoreBytes) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
