import { AnchoredBatch } from '../../../platform/disk/anchored-batch';
import type { WalkEntry } from '../../../platform/disk/workspace-walker';
import { isPersonaPath } from '../../../platform/disk/workspace-sandbox';
import type { ResolvedPath, WorkspaceSandbox } from '../../../platform/disk/workspace-sandbox';
import type { FsWorkerPool } from '../../../platform/search-engines/fs-worker-pool';
import type { WatchRound, WatchView } from '../../../platform/watching/tree-watcher';
import { FILES_PER_JOB } from './ngram-build';
import type { FillOptions } from './ngram-build';
import { FileVerdict } from './ngram-index';
import type { NgramIndex } from './ngram-index';
import { ALL } from './trigram-plan';

/** The walk's facts of a file a query found stale: enough to read it the anchored way. */
export type StaleEntry = Pick<WalkEntry, 'relPath' | 'inPersona' | 'dirRealRel' | 'dirId' | 'name'>;

/** What background work is handed to read files and to wait (the rest: ngram-build.ts FillOptions). */
export interface StaleWork extends Pick<FillOptions, 'racyMs' | 'signal' | 'pause'> {
  readonly workers: FsWorkerPool;
}

/**
 * A refresh's walk: compares every file the walk finds with the index; changed and new ones go into
 * `pending` as they are met. Answers the indexed paths the walk did not find (vanished: to drop),
 * or undefined when the walk failed. `round`: the watcher watches each folder the walk meets.
 */
export async function walkForStale(
  sandbox: WorkspaceSandbox,
  index: NgramIndex,
  start: ResolvedPath,
  round: WatchRound | undefined,
  pending: Map<string, StaleEntry>,
  work: StaleWork,
): Promise<string[] | undefined> {
  const verdict = index.selector(ALL);
  const seen = new Set<string>();
  const walked = await sandbox.walk(start, {
    recursive: true,
    includeHidden: false,
    withFacts: true,
    signal: work.signal,
    pause: work.pause,
    visit: (entry) => {
      if (entry.kind === 'directory' && !entry.inPersona) round?.folder(entry.dir, entry.name, entry.relPath);
      if (entry.kind !== 'file' || entry.inPersona || entry.facts === undefined) return 'continue';
      if (sandbox.denyList.deniesRead(entry.relPath)) return 'continue';
      seen.add(entry.relPath);
      if (verdict(entry.relPath, entry.facts.size, entry.facts.ctimeMs) === FileVerdict.Stale) {
        pending.set(entry.relPath, entry);
      }
      return 'continue';
    },
  });
  if (!walked.ok) return undefined;
  return index.livePaths().filter((path) => !seen.has(path));
}

/**
 * A catch-up's look at the paths the watcher marked, through the sandbox and without a walk: files
 * changed or new go into `pending` as they are met. Answers the paths to drop from the index (gone,
 * or never indexed), or 'refresh' when only a full refresh can tell (a folder changed: new, renamed,
 * replaced, gone; or the sandbox could not answer); what went into `pending` before then stays.
 */
export async function staleFromMarks(
  sandbox: WorkspaceSandbox,
  view: WatchView,
  paths: Iterable<string>,
  pending: Map<string, StaleEntry>,
): Promise<string[] | 'refresh'> {
  const gone: string[] = [];
  for (const path of paths) {
    if (view.isFolder(path)) return 'refresh';
    const hidden = path.startsWith('.') || path.includes('/.');
    if (hidden || isPersonaPath(path) || sandbox.denyList.deniesRead(path)) {
      gone.push(path); // never indexed; queries look at such paths themselves
      continue;
    }
    const resolved = await sandbox.resolve(path, 'read', { followFinal: false });
    if (!resolved.ok) {
      if (resolved.error.code !== 'file_not_found') return 'refresh';
      gone.push(path);
      continue;
    }
    const found = resolved.value;
    if (found.facts?.kind === 'directory') return 'refresh'; // a new folder: a walk watches it
    const dirId = sandbox.parentIdOf(found);
    // Not a file a walk would search (a symlink on the way, ignored, special), or gone meanwhile.
    if (found.facts?.kind !== 'file' || found.realRel !== path || sandbox.isIgnored(found) || dirId === undefined) {
      gone.push(path);
      continue;
    }
    const slash = found.realRel.lastIndexOf('/');
    pending.set(path, {
      relPath: path,
      inPersona: false,
      dirRealRel: slash === -1 ? '' : found.realRel.slice(0, slash),
      dirId,
      name: found.realRel.slice(slash + 1),
    });
  }
  return gone;
}

/**
 * Reads `entries` again in worker jobs of FILES_PER_JOB files (a pause before each) and adds what
 * they hold now to the index, in place of what it held of them.
 */
export async function indexAgain(
  index: NgramIndex,
  sandbox: WorkspaceSandbox,
  entries: readonly StaleEntry[],
  work: StaleWork,
): Promise<void> {
  for (let at = 0; at < entries.length; at += FILES_PER_JOB) {
    const held = work.pause();
    if (held !== undefined) await held;
    const slice = entries.slice(at, at + FILES_PER_JOB);
    const batch = new AnchoredBatch((inPersona) => sandbox.anchorOf(inPersona));
    for (const entry of slice) batch.add(entry);
    const files = batch.take();
    if (files === undefined) continue;
    index.add(
      slice.map((entry) => entry.relPath),
      await work.workers.indexFiles(files, work.racyMs, work.signal),
    );
  }
}
