import * as fs from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { DirRef } from './anchored-fs';
import { openDirStrict } from './anchored-resolve';
import { walkOpenedFiles } from './walk-opened-files';
import type { OpenedFirst } from './walk-opened-files';
import { fewToLookUp, kindOfEntry, listEntries, lookUpEntries, PersonaEntry } from './walk-folder-entries';
import type { DirEntry } from './walk-folder-entries';
import { fsError } from './fs-errors';
import { IgnoreRules } from './gitignore-rules';
import { builtInIgnores, ignoreRulesAbove, readGitignore } from './walk-ignore-rules';
import { joinRel } from './path-syntax';
import type { SandboxCore } from './sandbox-core';
import type { EntryFacts, EntryKind, ResolvedPath } from './resolved-path';
import { factsOf } from './resolved-path';

export interface WalkEntry {
  /** Workspace-relative path, as the assistant names it. */
  readonly relPath: string;
  readonly name: string;
  readonly kind: EntryKind;
  /** 1 for the start folder's children. */
  readonly depth: number;
  /** The entry lives in the persona folder (the overlay). */
  readonly inPersona: boolean;
  /** Its folder's real name within its root, and that folder's identity as the walk held it. */
  readonly dirRealRel: string;
  readonly dirId: { readonly dev: number; readonly ino: number };
  /**
   * Git ignores it (.gitignore, .git/info/exclude, a folder above it ignored) or it is .git or
   * node_modules: only `includeIgnored` walks see such entries.
   */
  readonly ignored: boolean;
  /** A folder of Familiar's own data: shown only to unfiltered walks, never entered. */
  readonly protected: boolean;
  /** With `withFacts`: lstat of the entry through its folder's descriptor (undefined if gone meanwhile). */
  readonly facts?: EntryFacts | undefined;
  /**
   * The folder held open, valid only during `visit`: lstat-ing the entry through it (a list's sizes)
   * costs one lookup and cannot be redirected.
   */
  readonly dir: DirRef;
  /**
   * With `openFirst`: a descriptor on this regular file, confirmed as a sandbox read is (one link,
   * still this name). The visitor owns it: it closes it, or hands it on to what will.
   */
  readonly opened?: number | undefined;
}

/** What the visitor wants next: go on, do not descend into this folder, or end the walk. */
export type WalkStep = 'continue' | 'skip' | 'stop';

export interface WalkOptions {
  readonly recursive: boolean;
  readonly includeHidden: boolean;
  /** Visit git-ignored entries (and .git, node_modules) too, marked `ignored`, and enter such folders. */
  readonly includeIgnored?: boolean | undefined;
  /**
   * Every entry, with no hidden/.gitignore/.git/node_modules filtering and no concealment: for
   * checks over a whole subtree (what a recursive delete or move would take along), never for output.
   */
  readonly unfiltered?: boolean;
  readonly signal?: AbortSignal | undefined;
  /**
   * lstat every entry that is not a folder, through the folder held open (sizes, versions); a
   * function: only the entries it picks by path and root (a lookup per entry costs more than its
   * readdir).
   */
  readonly withFacts?: boolean | ((relPath: string, inPersona: boolean) => boolean);
  /**
   * Background walks (index builds and refreshes): asked between slices; a promise holds the walk
   * until it settles (while a tool call runs, foreground-gate.ts).
   */
  readonly pause?: () => Promise<void> | undefined;
  /**
   * A walk that wants a few known paths: the names of the folder `relPath` it looks at (undefined:
   * all; the persona overlay's names at the root count as the root's). The others are dropped as
   * soon as the folder is read, neither sorted, opened, looked up nor visited (a folder dropped is
   * not entered); in proc-fd mode a folder that leaves at most one such name to look up (the files
   * opened first are known) is not listed, each name is looked up (walk-folder-entries.ts). The
   * checks on the entries it keeps are the same as in every walk.
   */
  readonly only?: (relPath: string, inPersona: boolean) => ReadonlySet<string> | undefined;
  /**
   * Files in the folder `relPath` to open before it is listed (walk-opened-files.ts): those then
   * visited come with `opened` and facts from it; the walk closes the others. A reader opening them
   * later would open the folder chain and read the folder again (issue 32: the first search).
   */
  readonly openFirst?: (relPath: string, inPersona: boolean) => Iterable<string> | undefined;
  /** Tests: how old a ctime proves an opened file's one link (kept-ctime.ts CTIME_SLACK_MS; never less outside tests). */
  readonly linksSettledMs?: number;
  readonly visit: (entry: WalkEntry) => WalkStep;
}

/** How long the walk may hold the event loop before letting IPC and timers run. */
const sliceMs = 8;

interface Frame {
  readonly relPath: string;
  readonly realRel: string;
  readonly dir: DirRef;
  /** The folder's identity, one object shared by its entries (a walk makes one entry per name). */
  readonly dirId: { readonly dev: number; readonly ino: number };
  readonly depth: number;
  readonly inPersona: boolean;
  readonly ignores: IgnoreRules;
  /** The folder itself is ignored, so is everything in it (includeIgnored walks only). */
  readonly ignored: boolean;
  readonly entries: readonly DirEntry[];
  /** openFirst's files, opened before the entries were read. */
  readonly opened: OpenedFirst | undefined;
  /** The folder was listed after they were opened (not looked up name by name). */
  readonly listedAfter: boolean;
  index: number;
}

/**
 * Walks the workspace as the assistant sees it, depth-first in sorted order (so a capped result is
 * the first N paths), every folder opened through its parent's descriptor without following links:
 * a folder swapped for a symlink mid-walk is skipped, never entered. The persona overlay at the
 * root, .gitignore files at every level (and above the start folder), hidden names and
 * .git/node_modules skipped unless asked for, memory files concealed while memory is off, Familiar's
 * own folders never entered, symlinks reported but never followed. Synchronous directory reads in
 * slices of a few milliseconds: faster than async fs for many small folders; the loop still runs.
 */
export async function walkWorkspace(
  core: SandboxCore,
  start: ResolvedPath,
  options: WalkOptions,
): Promise<Result<{ stopped: boolean }>> {
  if (start.facts?.kind !== 'directory') {
    return err('not_a_directory', `'${start.display}' is not a folder.`);
  }
  const { anchored } = core;
  const root = core.rootOf(start);
  const personaRoot = core.rootOf({ inPersona: true });
  if (root === undefined) return fsError({ code: 'ENOENT' }, start.display);
  const startSegments = start.realRel === '' ? [] : start.realRel.split('/');
  const asked = new Set(startSegments.filter((segment) => builtInIgnores.has(segment)));
  const overlayActive = core.overlayActive;
  const personaId = personaRoot === undefined ? undefined : { dev: personaRoot.dir.dev, ino: personaRoot.dir.ino };
  const stack: Frame[] = [];
  const { withFacts, only } = options;
  const openedFiles = walkOpenedFiles(anchored, core.hardLinks, root.dir, options.linksSettledMs);
  const push = (
    relPath: string,
    realRel: string,
    dir: DirRef,
    depth: number,
    inPersona: boolean,
    ignores: IgnoreRules,
    ignored: boolean,
  ): void => {
    // What this folder holds open is closed if anything here throws (a callback, a lookup).
    let opened: OpenedFirst | undefined;
    try {
      const names = options.openFirst?.(relPath, inPersona);
      const wanted = only?.(relPath, inPersona);
      // The workspace root's folder, where the persona overlay's names join the listing.
      const overlay = relPath === '' && overlayActive && !inPersona ? personaRoot?.dir : undefined;
      // Descriptors lead to names inside the folder (proc-fd mode): where names are checked by path,
      // each lookup would cost two more, so folders are listed there.
      const mayLookUp = wanted !== undefined && anchored.mode === 'proc-fd' && !inPersona && overlay === undefined;
      const read = openedFiles.openThenList(dir, names, (openedFirst) =>
        mayLookUp && fewToLookUp(wanted, openedFirst)
          ? lookUpEntries(anchored, dir, wanted, openedFirst)
          : listEntries(anchored, dir, wanted, overlay),
      );
      ({ opened } = read);
      const listed = read.entries;
      if (listed === undefined) {
        anchored.close(dir);
        return;
      }
      const { entries } = listed;
      // Inside an ignored folder git reads no .gitignore: everything there is ignored anyway.
      const gitignore = !inPersona && !ignored && listed.hasGitignore ? readGitignore(anchored, dir) : undefined;
      const rules = gitignore === undefined ? ignores : ignores.with(realRel, gitignore);
      const dirId = { dev: dir.dev, ino: dir.ino };
      stack.push({
        relPath,
        realRel,
        dir,
        dirId,
        depth,
        inPersona,
        ignores: rules,
        ignored,
        entries,
        opened,
        listedAfter: listed.listed,
        index: 0,
      });
    } catch (error) {
      openedFiles.closeUntaken(opened);
      anchored.close(dir);
      throw error;
    }
  };

  // Rules from .git/info/exclude and the .gitignore files above the start folder. A folder the user
  // asked for by path is listed even when git ignores it: a filtering walk then drops those rules,
  // and a walk that includes ignored entries marks all it finds as ignored.
  let inherited = IgnoreRules.none;
  let startIgnored = false;
  let startDir: DirRef;
  try {
    if (!start.inPersona && options.unfiltered !== true) {
      const above = ignoreRulesAbove(core, root, start.realRel);
      const byRules = start.realRel !== '' && above.ignores(start.realRel, true);
      const byName = startSegments.some((segment) => builtInIgnores.has(segment));
      if (!byRules) inherited = above;
      startIgnored = options.includeIgnored === true && (byRules || byName);
    }
    // The start folder is held by its own descriptor (even the root: frames close what they hold).
    startDir =
      start.realRel === ''
        ? anchored.reopen(root.dir)
        : openDirStrict(anchored, root, start.realRel, core.isProtected).dir;
  } catch (error) {
    return fsError(error, start.display);
  }
  push(start.relPath, start.realRel, startDir, 1, start.inPersona, inherited, startIgnored);

  let sliceStart = performance.now();
  try {
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const entry = frame.entries[frame.index];
      if (entry === undefined) {
        stack.pop();
        openedFiles.closeUntaken(frame.opened);
        anchored.close(frame.dir);
        // Checked once per folder, not per entry: cheap enough, and folders are small time units.
        if (performance.now() - sliceStart > sliceMs) {
          await yieldToLoop();
          const paused = options.pause?.();
          if (paused !== undefined) await paused;
          if (options.signal?.aborted === true) return err('aborted', 'The walk was stopped.');
          sliceStart = performance.now();
        }
        continue;
      }
      frame.index += 1;
      const persona = entry instanceof PersonaEntry;
      const kind = kindOfEntry(entry);
      const relPath = joinRel(frame.relPath, entry.name);
      const inPersona = frame.inPersona || persona;
      const parentDir = persona ? personaRoot!.dir : frame.dir;
      const dirRealRel = persona ? '' : frame.realRel;
      if (options.unfiltered !== true && core.isConcealed(relPath)) continue;
      let ignored = frame.ignored;
      if (!inPersona && options.unfiltered !== true) {
        if (entry.name.startsWith('.') && !options.includeHidden) continue;
        ignored ||=
          (builtInIgnores.has(entry.name) && !asked.has(entry.name)) ||
          (!frame.ignores.empty && frame.ignores.matchesEntry(dirRealRel, entry.name, kind === 'directory'));
        if (ignored && options.includeIgnored !== true) continue;
      }
      // A folder is opened (strictly) before it is shown: that is where its identity comes from.
      let child: DirRef | undefined;
      let isProtected = false;
      if (kind === 'directory') {
        try {
          child = anchored.openDir(parentDir, entry.name);
          isProtected = core.isProtected(child.dev, child.ino);
        } catch {
          continue; // swapped for a symlink or removed since the listing: not entered, not shown
        }
        if (isProtected && options.unfiltered !== true) {
          anchored.close(child);
          continue; // Familiar's own data never shows up in a walk
        }
      }
      // Opened before its folder was read: kept if that was its one name (walk-opened-files.ts take).
      // Until the visitor is given it, it is the walk's to close; so is the folder opened for it.
      let early: { readonly fd: number; readonly stats: fs.Stats } | undefined;
      let step: WalkStep;
      try {
        early =
          kind === 'file' && !persona
            ? openedFiles.take(frame.opened, parentDir, entry.name, frame.listedAfter)
            : undefined;
        const wanted = typeof withFacts === 'function' ? withFacts(relPath, inPersona) : withFacts === true;
        const stats =
          early?.stats ?? (wanted && child === undefined ? anchored.lstat(parentDir, entry.name) : undefined);
        const handed = early?.fd;
        early = undefined;
        step = options.visit({
          facts: stats === undefined ? undefined : factsOf(stats),
          relPath,
          name: entry.name,
          kind,
          depth: frame.depth,
          inPersona,
          dirRealRel,
          dirId: persona ? personaId! : frame.dirId,
          protected: isProtected,
          ignored,
          dir: parentDir,
          opened: handed,
        });
      } catch (error) {
        if (early !== undefined) fs.closeSync(early.fd);
        if (child !== undefined) anchored.close(child);
        throw error;
      }
      if (step === 'stop') {
        if (child !== undefined) anchored.close(child);
        return ok({ stopped: true });
      }
      if (child === undefined) continue;
      if (step === 'continue' && options.recursive && !isProtected) {
        push(relPath, joinRel(dirRealRel, entry.name), child, frame.depth + 1, inPersona, frame.ignores, ignored);
      } else {
        anchored.close(child);
      }
    }
    return ok({ stopped: false });
  } finally {
    for (const frame of stack) {
      openedFiles.closeUntaken(frame.opened);
      anchored.close(frame.dir);
    }
  }
}
