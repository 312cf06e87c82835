import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { StaleEntry } from '../../domain/search/ngram/ngram-service';
import {
  dropRipgrepPrestart,
  prestartGeneration,
  prestartRipgrepWalk,
  ripgrepWalk,
} from '../../platform/search-engines/ripgrep-walk';
import { isPersonaPath, personaEntries } from '../../platform/disk/workspace-sandbox';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import { closeOpened } from '../../platform/disk/walk-opened-files';
import type { WalkEntry, WalkStep } from '../../platform/disk/workspace-walker';
import { walkOrder } from '../../platform/disk/walk-folder-entries';
import type { ToolEnvironment } from '../kit/tool-environment';

/**
 * ripgrep's sandbox for the open workspace, made ahead (prestarted-launch.ts) once no tool call
 * runs, so a search that comes later starts in it; each walk makes the next one's itself. Made
 * while a call runs, it would only take that call's time (a search that comes at once starts its
 * own as before). `generation` is taken before the work that leads to `prestart` (the environment
 * it needs): `drop` (a workspace closing, the app ending) in between, and nothing is made.
 */
export const ripgrepAhead = {
  generation: prestartGeneration,
  async prestart(env: ToolEnvironment, asOf: number): Promise<void> {
    const root = env.sandbox.anchorOf(false);
    if (env.ripgrep === undefined || root === undefined) return;
    await prestartRipgrepWalk(
      env.ripgrep,
      { fd: root.dir.fd, path: root.dir.path, mode: root.mode },
      env.confinementFor('ripgrep'),
      { asOf, ...(env.foreground === undefined ? {} : { calls: env.foreground }) },
    );
  },
  drop: dropRipgrepPrestart,
};

/** The files a search_in_code walk would have searched that can match, found by ripgrep's own walk. */
export interface RipgrepWalked {
  /** Candidates confirmed through the sandbox, in the walk's order: the JS engine reads them. */
  readonly files: readonly StaleEntry[];
  /** Files searched: ripgrep's count, and the persona overlay's files. */
  readonly searched: number;
  /** The candidates' sizes added up, the persona overlay's files with them (Infinity: a size unknown). */
  readonly bytes: number;
  /** Each file's size, in the order of `files` (0: unknown). */
  readonly sizes: readonly number[];
  /**
   * The matching lines ripgrep counted in each file of `files` (same order), the file read as
   * text; -1 where it did not count it (the persona overlay, what it could not read). A count
   * holds only for a file still what ripgrep read (search-ripgrep-engine.ts).
   */
  readonly lines: readonly number[];
  /**
   * Per file of `files`: where the index and the change watcher vouch for it (VouchFor), the ctime
   * the index read it at, by which alone its count is checked (search-ripgrep-engine.ts); -1 where
   * the walk confirmed it and the check reads its first bytes.
   */
  readonly vouchedCtimes: Float64Array;
  /** Date.now() just before ripgrep started. */
  readonly startedAt: number;
  /**
   * With `openCandidates`: per file of `files`, the descriptor the confirming walk opened it by
   * (-1: none), for a read in this thread. The caller owns them: it hands them on with the files'
   * batch (AnchoredBatch.add) or closes them (closeOpened).
   */
  readonly opened: Int32Array;
  /** Closes the descriptors of `opened` (those not handed on). */
  closeOpened(): void;
}

export interface RipgrepWalkedOptions {
  /** Told how many files with a match ripgrep named so far, as it walks (progress). */
  readonly onMatched?: (count: number) => void;
  /** Open the candidates in the confirming walk (WalkOptions.openFirst): they will be read in this thread. */
  readonly openCandidates?: boolean;
  /** Told how many files ripgrep named once it is done, before the confirming walk. */
  readonly onNamed?: (count: number) => void;
  /**
   * Asked, once ripgrep is done, for a sink to hand each candidate to as the walk confirms it (with
   * how many ripgrep named, and when it started), so the engine checks the first ones while the walk
   * goes on. Not asked where the candidates are opened (openCandidates: a few, read in this thread)
   * or ripgrep left a folder unread (walked whole: a name read as two then drops the answer, which
   * a sink could not take back).
   */
  readonly streamTo?: (count: number, startedAt: number) => ConfirmedSink | undefined;
  /**
   * When ripgrep names more files than this, the confirming walk does not look up their sizes and
   * links (~5 µs a file in this thread): the engine's count checks learn both in the file threads,
   * and refuse a file with a second link there. `bytes` is then Infinity. Default: every file's.
   */
  readonly sizesUpTo?: number;
  /**
   * Asked once ripgrep is done: which candidates need no confirming walk (VouchFor). Those it
   * vouches for are not walked to, and their counts are checked by their ctime alone; the walk
   * confirms the others. Nothing is streamed then.
   */
  readonly vouch?: () => Promise<VouchFor | undefined>;
}

/**
 * For a file ripgrep named, where the trigram index and the change watcher vouch that the sandbox's
 * walk would list it now and that the index read it as text (search-index-engine.ts): its entry as
 * the walk would give it (its folder's identity the watcher's), and its size and ctime as indexed.
 * Undefined otherwise.
 */
export type VouchFor = (
  relPath: string,
) => { readonly entry: StaleEntry; readonly size: number; readonly ctimeMs: number } | undefined;

/** A candidate as the confirming walk confirms it: its entry, ripgrep's count (-1: none), its size (0: unknown). */
export type ConfirmedSink = (entry: StaleEntry, lines: number, size: number) => void;

const none: ReadonlySet<string> = new Set();

/**
 * At most this many candidates are opened by the confirming walk: what is read in this thread is a
 * few megabytes (search-in-code.ts inProcessBytes), and descriptors are a per-process budget.
 */
const maxOpened = 1024;

/**
 * search_in_code's faster first search (issue 28 item 4): where ripgrep runs confined to the
 * workspace, it walks the folders itself (ripgrep-walk.ts) instead of being handed the list the
 * sandbox's walk made, and names the files with a match and their counts. Those are then confirmed
 * by the sandbox's own walk, pruned to the folders on their way: a candidate counts only if that
 * walk finds it, so hidden names, .gitignore, node_modules, the deny-list, concealment, Familiar's
 * folders and linked folders are judged exactly as in a full walk; a file with a second hard link
 * is dropped (the sandbox never reads one), here or, with more candidates than `sizesUpTo`, by the
 * engine's check of its count. The JS engine reads again through the sandbox what is shown, and
 * ripgrep's count of a file stands only if the file is still what it read (search-ripgrep-engine.ts).
 * The persona overlay, which ripgrep does not see where the assistant does, comes from the same walk.
 *
 * ok(undefined) where this does not apply (no confinement, a start folder the walk treats apart:
 * the persona folder, a linked or ignored one) or ripgrep's answer may be incomplete: the caller
 * walks. Once candidates went to a sink (streamTo), never: a walk that fails is the answer (an
 * error), since the caller cannot walk again with part of them handed on.
 */
export async function ripgrepWalkedFiles(
  env: ToolEnvironment,
  rg: string,
  patternArgs: readonly string[],
  start: ResolvedPath,
  includeIgnored: boolean,
  accept: (relPath: string) => boolean,
  signal: AbortSignal,
  { onMatched, openCandidates = false, onNamed, streamTo, sizesUpTo = Infinity, vouch }: RipgrepWalkedOptions = {},
): Promise<Result<RipgrepWalked | undefined>> {
  const { sandbox } = env;
  const base = start.relPath;
  if (start.facts?.kind !== 'directory' || start.inPersona || start.realRel !== base) return ok(undefined);
  if ((base !== '' && isPersonaPath(base)) || sandbox.isIgnored(start)) return ok(undefined);
  const root = sandbox.anchorOf(false);
  if (root === undefined) return ok(undefined);
  const answer = await ripgrepWalk(
    rg,
    patternArgs,
    { fd: root.dir.fd, path: root.dir.path, mode: root.mode },
    {
      start: base,
      includeIgnored,
      // The project's own persona names at the root are shadowed by the persona folder's.
      exclude: base === '' && sandbox.overlayActive ? personaEntries.map((name) => `/${name}`) : [],
      confinement: env.confinementFor('ripgrep'),
      ...(env.foreground === undefined ? {} : { calls: env.foreground }),
      ...(onMatched === undefined ? {} : { onMatched }),
    },
    signal,
  );
  if (answer === undefined) return ok(undefined);
  onNamed?.(answer.matched.length);
  // The candidates the index vouches for (in walk order), and those the walk confirms.
  const vouchFor = vouch === undefined || answer.matched.length === 0 ? undefined : await vouch();
  const vouched: { entry: StaleEntry; size: number; ctimeMs: number; count: number }[] = [];
  /** The candidates the confirming walk looks for, and ripgrep's count of each. */
  const candidates = new Map<string, number>();
  answer.matched.forEach((path, at) => {
    const known = vouchFor !== undefined && accept(path) ? vouchFor(path) : undefined;
    if (known === undefined) candidates.set(path, answer.lines[at]!);
    else vouched.push({ ...known, count: answer.lines[at]! });
  });
  vouched.sort((a, b) => walkOrder(a.entry.relPath, b.entry.relPath));
  const opening = openCandidates && candidates.size <= maxOpened;
  const streamed =
    opening || answer.unsearched.length > 0 || vouched.length > 0
      ? undefined
      : streamTo?.(answer.matched.length, answer.startedAt);

  // The folders on the way to a candidate, the names the confirming walk looks at in each, and
  // the candidates' names it opens before it lists their folder.
  const folders = new Set<string>();
  const namesOf = new Map<string, Set<string>>();
  const namesIn = new Map<string, Set<string>>();
  const sized = candidates.size <= sizesUpTo;
  const wantIn = (map: Map<string, Set<string>>, folder: string, name: string) => {
    const names = map.get(folder);
    if (names === undefined) map.set(folder, new Set([name]));
    else names.add(name);
  };
  // The folder of the path added last, and its wanted names: ripgrep names a folder's files mostly
  // one after the other, and those need nothing on the way looked at again (28k names: ~35 ms → ~15).
  let lastFolder = '';
  let lastNames: Set<string> | undefined;
  /** Adds the folders on the way to `path` and its name in its folder; returns that folder. */
  const wantPath = (path: string): string => {
    const slash = path.lastIndexOf('/');
    if (lastNames !== undefined && slash === lastFolder.length && path.startsWith(lastFolder)) {
      lastNames.add(path.slice(slash + 1));
      return lastFolder;
    }
    let parent = '';
    let from = 0;
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
      const folder = path.slice(0, at);
      if (!folders.has(folder)) wantIn(namesOf, parent, path.slice(from, at));
      folders.add(folder);
      parent = folder;
      from = at + 1;
    }
    wantIn(namesOf, parent, path.slice(from));
    if (parent !== '') {
      lastFolder = parent;
      lastNames = namesOf.get(parent);
    }
    return parent;
  };
  for (const path of candidates.keys()) {
    const parent = wantPath(path);
    if (opening) wantIn(namesIn, parent, path.slice(parent === '' ? 0 : parent.length + 1));
  }
  // What ripgrep could not list or read (a folder refused to it in its confinement that this
  // process may read): walked whole, every file there a candidate the engines read themselves.
  const whole = new Set(answer.unsearched);
  for (const path of whole) wantPath(path);
  const inWhole = (relPath: string): boolean => {
    if (whole.size === 0) return false;
    for (let at = relPath.length; at !== -1; at = relPath.lastIndexOf('/', at - 1)) {
      if (whole.has(relPath.slice(0, at))) return true;
      if (at === 0) break;
    }
    return false;
  };
  // The persona overlay, which ripgrep does not see where the assistant does: all of it is looked at.
  if (base === '' && sandbox.overlayActive) for (const name of personaEntries) wantIn(namesOf, '', name);
  const refuseHardLinks = root.hardLinks === 'refuse';
  const files: StaleEntry[] = [];
  const opened: number[] = [];
  const sizes: number[] = [];
  const lines: number[] = [];
  const unread: number[] = []; // opened by the walk, then turned down here
  const turnDown = (entry: WalkEntry): WalkStep => {
    if (entry.opened !== undefined) unread.push(entry.opened);
    return 'continue';
  };
  /** A candidate confirmed: kept in walk order, and handed to the sink at once. */
  const confirm = (entry: WalkEntry, descriptor: number, count: number) => {
    const confirmed = staleEntry(entry);
    const size = entry.facts?.size ?? 0;
    files.push(confirmed);
    opened.push(descriptor);
    sizes.push(size);
    lines.push(count);
    bytes += entry.facts?.size ?? Infinity;
    streamed?.(confirmed, count, size);
  };
  let personaFiles = 0;
  let wholeFiles = 0;
  /** Of `whole`, the paths the walk met: one it did not (a name with a newline read as two messages) drops the answer. */
  let wholeSeen = 0;
  let bytes = 0;
  const walking = sandbox.walk(start, {
    recursive: true,
    includeHidden: false,
    includeIgnored,
    signal,
    // Only the folders on the way and the candidates (and the persona overlay) are looked at: the
    // other names of a folder are dropped as it is read.
    only: (relPath, inPersona) => (inPersona || inWhole(relPath) ? undefined : (namesOf.get(relPath) ?? none)),
    openFirst: (relPath, inPersona) => (inPersona ? undefined : namesIn.get(relPath)),
    // The persona files' sizes too: with them a literal over a few small files is searched in this
    // thread, and the first search does not wait for a file-worker thread to start (100-175 ms).
    withFacts: (relPath, inPersona) => inPersona || (sized && candidates.has(relPath)) || inWhole(relPath),
    visit: (entry) => {
      // The persona overlay, which ripgrep did not see where the assistant does: all of it searched.
      if (entry.inPersona) {
        if (entry.kind === 'file') {
          personaFiles += 1;
          if (accept(entry.relPath)) confirm(entry, -1, -1);
        }
        return 'continue';
      }
      if (whole.has(entry.relPath)) wholeSeen += 1;
      if (entry.kind === 'directory') return folders.has(entry.relPath) || inWhole(entry.relPath) ? 'continue' : 'skip';
      const count = candidates.get(entry.relPath);
      const unsearched = count === undefined && inWhole(entry.relPath);
      if (entry.kind !== 'file' || !(count !== undefined || unsearched) || !accept(entry.relPath)) {
        return turnDown(entry);
      }
      // Searched by the engines instead of ripgrep (as a full walk's scan would count it).
      if (unsearched) wholeFiles += 1;
      // A second hard link (maybe to a file outside the workspace) is never read: not even counted.
      // Not looked up (sizesUpTo), the engine's check of its count refuses it.
      const looked = sized || unsearched;
      if (refuseHardLinks && (entry.facts === undefined ? looked : entry.facts.nlink > 1)) return turnDown(entry);
      confirm(entry, entry.opened ?? -1, unsearched ? -1 : count!);
      return 'continue';
    },
  });
  // Descriptors are closed whatever the walk's end: a throw (a folder turned unreadable) included.
  const walked = await walking.catch((error: unknown) => {
    closeOpened(Int32Array.from([...unread, ...opened]));
    throw error;
  });
  closeOpened(Int32Array.from(unread));
  const held = Int32Array.from(opened);
  if (!walked.ok || wholeSeen !== whole.size) {
    closeOpened(held);
    if (streamed === undefined) return ok(undefined);
    // Streamed: `whole` was empty, so the walk itself failed (stopped, its folder gone).
    return walked.ok ? err('internal_error', 'The confirming walk missed what ripgrep could not read.') : walked;
  }
  const searched = answer.searched + personaFiles + wholeFiles;
  if (vouched.length === 0) {
    // Already in the walk's order.
    return ok({
      files,
      searched,
      bytes,
      sizes,
      lines,
      vouchedCtimes: new Float64Array(files.length).fill(-1),
      startedAt: answer.startedAt,
      opened: held,
      closeOpened: () => closeOpened(held),
    });
  }
  // The vouched candidates merged into the walk's, both in the walk's order.
  const all = { files: [] as StaleEntry[], sizes: [] as number[], lines: [] as number[], opened: [] as number[] };
  const ctimes: number[] = [];
  const add = (file: StaleEntry, size: number, count: number, descriptor: number, ctimeMs: number) => {
    all.files.push(file);
    all.sizes.push(size);
    all.lines.push(count);
    all.opened.push(descriptor);
    ctimes.push(ctimeMs);
  };
  const addVouched = ({ entry, size, count, ctimeMs }: (typeof vouched)[number]) =>
    add(entry, size, count, -1, ctimeMs);
  let next = 0;
  files.forEach((file, at) => {
    for (; next < vouched.length && walkOrder(vouched[next]!.entry.relPath, file.relPath) < 0; next += 1) {
      addVouched(vouched[next]!);
    }
    add(file, sizes[at]!, lines[at]!, held[at]!, -1);
  });
  for (; next < vouched.length; next += 1) addVouched(vouched[next]!);
  const allOpened = Int32Array.from(all.opened);
  return ok({
    ...all,
    searched,
    bytes: vouched.reduce((sum, { size }) => sum + size, bytes),
    vouchedCtimes: Float64Array.from(ctimes),
    startedAt: answer.startedAt,
    opened: allOpened,
    closeOpened: () => closeOpened(allOpened),
  });
}

/** What a batch needs of a walked file (its folder held only during the visit is not kept). */
const staleEntry = ({ relPath, inPersona, dirRealRel, dirId, name }: WalkEntry): StaleEntry => ({
  relPath,
  inPersona,
  dirRealRel,
  dirId,
  name,
});
