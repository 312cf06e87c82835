import { FileVerdict } from '../../domain/search/ngram/ngram-index';
import type { FileSelector, NgramIndex } from '../../domain/search/ngram/ngram-index';
import type { NgramStatus, StaleEntry, WorkspaceNgram } from '../../domain/search/ngram/ngram-service';
import { literalPlan, regexPlan } from '../../domain/search/ngram/trigram-plan';
import type { SearchSpec } from '../../platform/search-engines/search-types';
import type { WatchView } from '../../platform/watching/tree-watcher';
import type { WalkEntry } from '../../platform/disk/workspace-walker';
import { walkOrder } from '../../platform/disk/walk-folder-entries';
import { isPersonaPath, personaEntries } from '../../platform/disk/workspace-sandbox';
import type { EntryFacts, ResolvedPath, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import type { ToolEnvironment } from '../kit/tool-environment';
import type { VouchFor } from './search-ripgrep-walk';

/** Candidates above this share of the indexed files: ripgrep (when on PATH) confirms them faster. */
const RIPGREP_SHARE = 0.1;
/**
 * More candidates than this: the walk (one readdir per folder) finds them faster than the index's
 * list can look each up through the sandbox (a broad regex on a big tree).
 */
const MANY_CANDIDATES = 4096;

/** What search_in_code does with one walked file when the trigram index answers. */
export type IndexedChoice = 'search' | 'skip' | 'binary';

/** What the index says of a file the walk (or the watcher's list) found; notes it stale when it is. */
type Choose = (entry: StaleEntry, facts: EntryFacts | undefined) => IndexedChoice;

/** The files a walk from the start folder would have found, from the index and the watcher. */
export interface Listed {
  /** The candidates to read, in the walk's order. */
  readonly files: readonly StaleEntry[];
  /** Their sizes in bytes, in the same order (the reads are shared out among the file workers by them). */
  readonly sizes: readonly number[];
  /** Files in scope the index rules out, and indexed binary files (a scan counts both). */
  readonly skipped: number;
  readonly binary: number;
}

export interface IndexedWalk {
  choose(entry: WalkEntry): IndexedChoice;
  /**
   * When the change watcher vouches for the index: the files to search under `start` without a
   * walk (`accept`: the call's file_pattern and deny-list; `byDenyList`: no file_pattern, so
   * `accept` is the deny-list's answer alone); undefined: walk.
   */
  listed(start: ResolvedPath, accept: (relPath: string) => boolean, byDenyList: boolean): Promise<Listed | undefined>;
  /** Many candidates: confirm them with ripgrep rather than the JS engine. */
  readonly broad: boolean;
  /** After the walk: files found changed or new are indexed again in the background. */
  finish(): void;
}

const hasHiddenSegment = (path: string): boolean => path.startsWith('.') || path.includes('/.');

/**
 * A file resolved by name (not following a final symlink) as a walk would name it: its folder held
 * by identity, for AnchoredBatch. Undefined when that folder is gone.
 */
export function walkEntryOf(sandbox: WorkspaceSandbox, resolved: ResolvedPath): StaleEntry | undefined {
  const dirId = sandbox.parentIdOf(resolved);
  if (dirId === undefined) return undefined;
  const slash = resolved.realRel.lastIndexOf('/');
  return {
    relPath: resolved.relPath,
    inPersona: resolved.inPersona,
    dirRealRel: slash === -1 ? '' : resolved.realRel.slice(0, slash),
    dirId,
    name: resolved.realRel.slice(slash + 1),
  };
}

/**
 * `walkInstead`: ripgrep can walk the folders itself, confined (search-ripgrep-walk.ts). The index
 * then answers only where it saves that walk: while the change watcher vouches for it (a saved index
 * just opened after a restart is not vouched for until its refresh) and its candidates are few.
 * Otherwise it would look up every file through the sandbox (a walk with an lstat per file: about a
 * second on 62k files), or hand ripgrep tens of thousands of names, where ripgrep's own walk costs
 * what a scan costs; `walk` is then undefined and the call scans.
 *
 * The trigram index's part in a search_in_code call (issue 16 item 4): when the index is on and
 * ready, a selector over the walked files (the walk stays: it applies the path, file_pattern,
 * .gitignore, hidden files, the deny-list and concealment exactly as a scan does). Each file's
 * size and ctime are checked against the index: a file changed since (by anyone, reported or not)
 * is searched, so the answer equals a full scan's. `status` says what the index is doing.
 *
 * While the change watcher is trusted, `listed` answers without the walk: the index's own file list
 * stands for every file the watcher heard nothing about; paths it heard about, and the persona
 * overlay, are looked at through the sandbox.
 */
export async function indexedWalk(
  env: ToolEnvironment,
  query: { readonly text: string; readonly isRegex: boolean; readonly caseSensitive: boolean },
  spec: SearchSpec,
  includeIgnored: boolean,
  walkInstead = false,
): Promise<{ walk?: IndexedWalk; status?: NgramStatus; vouch?: () => Promise<VouchFor | undefined> }> {
  if (env.ngramIndexes === undefined || env.searchIndexEnabled?.() === false) return {};
  const ngram = env.ngramIndexes.for(env.workspaceRoot);
  // A saved index being opened is waited for (headers only: tens of ms); a build is not. Where
  // ripgrep walks instead, not even that: no watcher vouches for an index just opened.
  const index = walkInstead ? ngram.ready(env.sandbox) : await ngram.answering(env.sandbox);
  // Ignored files are not indexed: include_ignored searches scan.
  if (index === undefined || includeIgnored) return { status: ngram.status() };
  // Not vouched for: each file would be looked up through the sandbox; ripgrep's walk is faster.
  if (walkInstead && (await ngram.watched(env.sandbox)) === undefined) return { status: ngram.status() };
  const plan = query.isRegex ? regexPlan(spec.pattern, spec.flags) : literalPlan(query.text, query.caseSensitive);
  await index.prepare(plan); // lists still on disk (a saved index being read) are read now
  // Where ripgrep walks instead, a plan with many candidates is given up on as soon as that shows.
  const select = index.selector(plan, walkInstead ? MANY_CANDIDATES : Infinity);
  // Many candidates: ripgrep walks, and the index vouches for the files it knows unchanged.
  if (select === undefined) return { status: ngram.status(), vouch: () => vouchedByIndex(env.sandbox, ngram, index) };
  const many = select.share * index.files > MANY_CANDIDATES;
  const stale: StaleEntry[] = [];
  const choose: Choose = (entry, facts) => {
    // The persona overlay's files are never indexed; a file gone meanwhile is the matcher's to skip.
    if (entry.inPersona || facts === undefined) return 'search';
    const verdict = select(entry.relPath, facts.size, facts.ctimeMs);
    if (verdict === FileVerdict.Stale) stale.push(entry);
    return verdict === FileVerdict.Skip ? 'skip' : verdict === FileVerdict.Binary ? 'binary' : 'search';
  };
  return {
    status: ngram.status(),
    walk: {
      broad: select.share > RIPGREP_SHARE,
      choose: (entry) => choose(entry, entry.facts),
      async listed(start, accept, byDenyList) {
        if (many) return undefined;
        const view = await ngram.watched(env.sandbox);
        // The listing is the plan's index's: one replaced meanwhile (a build, a save reopened) may
        // know files the watcher no longer names as changed.
        if (view === undefined || ngram.ready(env.sandbox) !== index) return undefined;
        return listFromIndex(env, select, choose, view, start, accept, byDenyList, index);
      },
      finish: () => ngram.reindex(env.sandbox, stale),
    },
  };
}

/**
 * Once ripgrep's walk is done: which of the files it named the index and the change watcher vouch
 * for (search-ripgrep-walk.ts VouchFor), or undefined where the watcher vouches for nothing now. The
 * watcher's view is taken after ripgrep ran, the events queued meanwhile heard first: a file written
 * through its workspace name, replaced, or renamed (or a folder on its way) while ripgrep read is
 * dirty in it. A vouched file is one the index holds (found by its full walks and catch-ups, hidden
 * names, ignore rules and the deny-list of the last full walk applied), read as plain text, with no
 * event since for it or a folder on its way, and not concealed now (the memory switch may have
 * moved since the index read it). Its folder is the one the watcher watches there. What the watcher
 * cannot hear (a second link made from outside the workspace, a write through it) sets the file's
 * ctime: its count stands only while the file has the ctime the index read it at (count-checks.ts).
 */
async function vouchedByIndex(
  sandbox: WorkspaceSandbox,
  ngram: WorkspaceNgram,
  index: NgramIndex,
): Promise<VouchFor | undefined> {
  const view = await ngram.watched(sandbox);
  if (view === undefined || ngram.ready(sandbox) !== index) return undefined;
  const { dirty } = view;
  // Per folder: concealed, itself or a folder above it (the walk enters no concealed folder).
  const concealedFolders = new Map<string, boolean>([['', false]]);
  const concealedFolder = (folder: string): boolean => {
    let concealed = concealedFolders.get(folder);
    if (concealed === undefined) {
      const slash = folder.lastIndexOf('/');
      concealed = sandbox.isConcealed(folder) || concealedFolder(slash === -1 ? '' : folder.slice(0, slash));
      concealedFolders.set(folder, concealed);
    }
    return concealed;
  };
  return (path) => {
    if (isPersonaPath(path) || hasHiddenSegment(path)) return undefined;
    if (dirty.size > 0 && (dirty.has(path) || ancestorIn(path, dirty))) return undefined;
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? '' : path.slice(0, slash);
    if (sandbox.isConcealed(path) || concealedFolder(folder)) return undefined;
    const indexed = index.plainText(path);
    const dirId = indexed === undefined ? undefined : view.folderId(folder);
    if (dirId === undefined) return undefined;
    const entry = { relPath: path, inPersona: false, dirRealRel: folder, dirId, name: path.slice(slash + 1) };
    return { entry, size: indexed!.size, ctimeMs: indexed!.ctimeMs };
  };
}

/** A folder on the way to `path` is in `set`. */
function ancestorIn(path: string, set: ReadonlySet<string>): boolean {
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    if (set.has(path.slice(0, at))) return true;
  }
  return false;
}

const UNMARKED = 0;
const PASSES = 1;
const FAILS = 2;
/** Per index, per file number: UNMARKED, or whether its path passes a listing's name checks. */
const nameChecks = new WeakMap<NgramIndex, { denyList: object; marks: Uint8Array }>();

/**
 * The name-check marks of `index`'s files under `denyList` (a new deny-list starts them over), one
 * per number it has given out (files indexed since the last listing are added UNMARKED).
 */
function nameMarks(index: NgramIndex, denyList: object): Uint8Array {
  let entry = nameChecks.get(index);
  if (entry === undefined || entry.denyList !== denyList) {
    entry = { denyList, marks: new Uint8Array(0) };
    nameChecks.set(index, entry);
  }
  if (entry.marks.length < index.fileNumbers) {
    const grown = new Uint8Array(index.fileNumbers);
    grown.set(entry.marks);
    entry.marks = grown;
  }
  return entry.marks;
}

/** `listed` of indexedWalk: see there. Undefined when the start is not a folder the watcher knows. */
async function listFromIndex(
  env: ToolEnvironment,
  select: FileSelector,
  choose: Choose,
  view: WatchView,
  start: ResolvedPath,
  accept: (relPath: string) => boolean,
  /** No file_pattern: `accept` is the deny-list's answer alone, the same at every query. */
  byDenyList: boolean,
  /** The index `select` is of: what its files' names pass is kept for it (nameMarks). */
  index: NgramIndex,
): Promise<Listed | undefined> {
  const { sandbox } = env;
  const base = start.relPath;
  // A hidden, ignored or persona folder asked for by path, or one the last full walk did not see
  // (new, or replaced since): the walk knows what to show there.
  if (start.inPersona || start.realRel !== base || !view.isFolder(base) || (base !== '' && isPersonaPath(base))) {
    return undefined;
  }
  const under = base === '' ? '' : `${base}/`;
  const inScope = (path: string) => path.startsWith(under);
  // The start folder (or one above it) changed: walk.
  if (view.dirty.has(base) || ancestorIn(base, view.dirty)) return undefined;

  const files: StaleEntry[] = [];
  const sizeOf = new Map<string, number>();
  const seen = new Set<string>();
  let skipped = 0;
  let binary = 0;
  const take = (entry: StaleEntry, facts: EntryFacts | undefined) => {
    if (seen.has(entry.relPath) || !accept(entry.relPath)) return;
    seen.add(entry.relPath);
    const choice = choose(entry, facts);
    if (choice === 'skip') skipped += 1;
    else if (choice === 'binary') binary += 1;
    else {
      files.push(entry);
      sizeOf.set(entry.relPath, facts?.size ?? 0);
    }
  };
  /**
   * What a walk from the workspace root finds at `path` (a changed path, a persona entry), looked
   * at through the sandbox: a file, or a folder walked. Returns true when `path` is a folder now.
   */
  const look = async (path: string): Promise<boolean> => {
    const resolved = await sandbox.resolve(path, 'read', { followFinal: false });
    if (!resolved.ok || resolved.value.facts === undefined) return false;
    const found = resolved.value;
    // Reached through a symlinked folder (a walk enters none), or ignored: not in a scan.
    if ((!found.inPersona && found.realRel !== path) || sandbox.isIgnored(found)) return false;
    if (found.facts!.kind === 'file') {
      const entry = walkEntryOf(sandbox, found);
      if (entry !== undefined) take(entry, found.facts);
      return false;
    }
    if (found.facts!.kind !== 'directory') return false;
    await sandbox.walk(found, {
      recursive: true,
      includeHidden: false,
      withFacts: true,
      visit: (entry) => {
        if (entry.kind === 'file') take(entry, entry.facts);
        return 'continue';
      },
    });
    return true;
  };

  // 1. Paths the watcher heard about, in walk order (a changed folder comes before what is in it).
  const dirty = [...view.dirty].filter((path) => inScope(path) && !isPersonaPath(path)).sort(walkOrder);
  /** Folders whose indexed files the index may no longer speak for: walked instead (or gone). */
  const replaced = new Set<string>();
  for (const path of dirty) {
    if (hasHiddenSegment(path) || ancestorIn(path, replaced)) continue;
    if ((await look(path)) || view.isFolder(path)) replaced.add(path);
  }
  // 2. The persona overlay's root entries: never indexed (concealment may hide them), always looked at.
  if (base === '') {
    let names: readonly string[] = personaEntries;
    if (!sandbox.overlayActive) {
      // No overlay: they are the folder's own entries, spelled as they are on disk.
      const root = sandbox.listDir(start);
      names = root.ok ? root.value.map((entry) => entry.name).filter((name) => isPersonaPath(name)) : [];
    }
    for (const name of names) await look(name);
  }
  // 3. Every other indexed file in scope: the watcher vouches it is as indexed.
  const searched: string[] = [];
  const racy: string[] = [];
  const tally = (path: string, verdict: FileVerdict) => {
    if (verdict === FileVerdict.Skip) skipped += 1;
    else if (verdict === FileVerdict.Binary) binary += 1;
    else if (verdict === FileVerdict.Search) searched.push(path);
    else racy.push(path); // written just before it was indexed: its facts decide
  };
  // One pass over the index's own table (no await: the listing is one snapshot of it).
  if (base === '' && byDenyList && replaced.size === 0) {
    // The whole workspace, no file_pattern: whether a file's name passes (not a persona file, not
    // denied) is the same at every query, so it is kept per file number, and the ~60k files that
    // cannot match are counted without their paths (half a warm query's time before).
    const excluded = new Set<number>();
    for (const path of [...seen, ...view.dirty]) {
      const id = select.idOf(path);
      if (id !== undefined) excluded.add(id);
    }
    const marks = nameMarks(index, sandbox.denyList);
    select.eachKnownId((id, verdict) => {
      if (excluded.size > 0 && excluded.has(id)) return;
      let mark = marks[id]!;
      if (mark === UNMARKED) {
        const path = select.pathOf(id);
        mark = marks[id] = !isPersonaPath(path) && accept(path) ? PASSES : FAILS;
      }
      if (mark !== PASSES) return;
      if (verdict === FileVerdict.Skip) skipped += 1;
      else tally(select.pathOf(id), verdict);
    });
  } else {
    select.eachKnown((path, verdict) => {
      if (!inScope(path) || seen.has(path) || view.dirty.has(path) || isPersonaPath(path)) return;
      if (replaced.size > 0 && ancestorIn(path, replaced)) return;
      if (accept(path)) tally(path, verdict);
    });
  }
  for (const path of racy) await look(path);
  // Candidates are read through the sandbox like any file: resolved again, by name, now.
  for (const path of searched) {
    const resolved = await sandbox.resolve(path, 'read', { followFinal: false });
    if (!resolved.ok || resolved.value.facts?.kind !== 'file' || resolved.value.realRel !== path) continue;
    const entry = walkEntryOf(sandbox, resolved.value);
    if (entry !== undefined) {
      seen.add(path);
      files.push(entry);
      sizeOf.set(path, resolved.value.facts.size);
    }
  }
  files.sort((a, b) => walkOrder(a.relPath, b.relPath));
  return { files, sizes: files.map((entry) => sizeOf.get(entry.relPath) ?? 0), skipped, binary };
}
