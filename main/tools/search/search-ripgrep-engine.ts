import type { AnchoredFiles } from '../../platform/disk/anchored-batch';
import { CTIME_SLACK_MS } from '../../platform/disk/kept-ctime';
import { pickFiles } from '../../platform/disk/anchored-pick';
import type { ConfinementRules } from '../../platform/processes/launch-types';
import type { FsWorkerPool } from '../../platform/search-engines/fs-worker-pool';
import { searchFilesNow } from '../../platform/search-engines/in-process-jobs';
import { checkCounts, COUNT_AGAIN, COUNT_BINARY } from '../../platform/search-engines/count-checks';
import type { CountCheckJob, CountChecks } from '../../platform/search-engines/count-checks';
import { ripgrepCounts } from '../../platform/search-engines/ripgrep-search';
import type { RipgrepCounts } from '../../platform/search-engines/ripgrep-search';
import type { FileMatches, SearchJobResult, SearchSpec } from '../../platform/search-engines/search-types';
import type { BatchResult, SearchEngine } from './search-js-engine';
import { createBatchQueue } from './search-batch-queue';
import { fileCostBytes, shareOut } from './describe-shares';
import type { FileBatch } from './search-batch-queue';

/** ripgrep processes at once: each uses every core already. */
const maxInFlight = 2;

/** Files to describe are read in the main thread up to this many bytes (a few ms), else in a worker. */
const inProcessBytes = 1 << 20;

/** What a batch's count says, by ripgrep (with sizes) or by the JS engine: SearchJobResult's counts. */
type Counts = Pick<RipgrepCounts, 'counts' | 'sizes' | 'bytes'> & Pick<SearchJobResult, 'binary'>;

interface Counted extends FileBatch {
  readonly counted: Counts;
}

/** What ripgrep's own walk counted (search-ripgrep-walk.ts), by the files' order in the search. */
export interface WalkCounts {
  /** Matching lines per file, the file read as text (-1: not counted by ripgrep). */
  readonly lines: readonly number[];
  /** Each file's size (0: unknown). */
  readonly sizes: readonly number[];
  /**
   * Where the trigram index and the change watcher vouch for the file (search-ripgrep-walk.ts
   * VouchFor): the ctime the index read it at, which it must still have (one lstat, no read, in
   * place of the check of its first bytes); -1 elsewhere. None given: -1 everywhere.
   */
  readonly vouchedCtimes?: Float64Array;
  /** Date.now() just before the walk's ripgrep started. */
  readonly startedAt: number;
}

export interface RipgrepEngineOptions {
  /** process-rules.ts, 'ripgrep'. */
  readonly confinement?: Omit<ConfinementRules, 'cwd'>;
  /**
   * The counts ripgrep's walk made already: no ripgrep is started; each count stands as a count
   * made on the file list would, and whether the file is binary is judged from its first bytes.
   */
  readonly walkCounts?: WalkCounts;
  /** Tests: files written just before count as changed within this slack (CTIME_SLACK_MS). */
  readonly ctimeSlackMs?: number;
  /** Counts of this many files and more are checked in the file threads (default MIN_THREAD_CHECKS). */
  readonly minThreadChecks?: number;
  /** Files a batch gathers (default: WALK_BATCH_FILES with `walkCounts`, else what a process start is worth). */
  readonly batchFiles?: number;
}

/**
 * The ripgrep engine: ripgrep counts the matching lines of every file the walk listed (batches named
 * on its command line, ripgrep-search.ts), then the JS engine reads again, through the sandbox, the
 * first files in walk order until max_results lines are described: the lines shown, their context
 * and column come from the same code as the JS engine's, and a file that is no longer one the
 * sandbox would read (swapped for a symlink, a second hard link) is dropped there. A batch ripgrep
 * fails on (a file gone since the walk) is counted by the JS engine instead. ripgrep runs confined
 * by `confinement` (process-rules.ts, 'ripgrep') when given. With `walkCounts`, the counts are
 * those ripgrep's walk made, held to the same rule.
 */
export function createRipgrepEngine(
  rg: string,
  patternArgs: readonly string[],
  workers: FsWorkerPool,
  spec: SearchSpec,
  maxResults: number,
  signal: AbortSignal,
  {
    confinement,
    walkCounts,
    ctimeSlackMs = CTIME_SLACK_MS,
    minThreadChecks = MIN_THREAD_CHECKS,
    batchFiles,
  }: RipgrepEngineOptions = {},
): SearchEngine {
  const queue = createBatchQueue(maxInFlight, async ({ offset, files }): Promise<Counted> => {
    const position = positions.get(offset)!;
    const counted = await countsOf(offset, files);
    noteCounted(position, counted);
    return counted;
  });
  /** Each batch's place in the order they were added (by offset). */
  const positions = new Map<number, number>();

  async function countsOf(offset: number, files: AnchoredFiles): Promise<Counted> {
    if (walkCounts !== undefined) {
      const { counted, uncounted, vouched } = countedByWalk(walkCounts, offset, files.names.length);
      const since = walkCounts.startedAt - ctimeSlackMs;
      // The files the index vouches for are checked by their ctime alone (no read), the others as
      // any count ripgrep's walk made; both at once.
      const [checked, held] = await Promise.all([
        standing(counted, files, since, { judgeBinary: true, uncounted }),
        standing(vouched.counted, files, since, { judgeBinary: false, ctimes: Float64Array.from(vouched.ctimes) }),
      ]);
      // describe() sorts a batch's counts by file: the two lists are simply put together. A vouched
      // file found binary once counted again counts as binary.
      const counts = Int32Array.from([...checked.counts, ...held.counts]);
      const sizes = Float64Array.from([...(checked.sizes ?? []), ...(held.sizes ?? [])]);
      return { offset, files, counted: { counts, sizes, binary: checked.binary + held.binary, bytes: counted.bytes } };
    }
    const since = Date.now() - ctimeSlackMs;
    const counted = await ripgrepCounts(rg, patternArgs, files, signal, confinement);
    if (counted === undefined) {
      return { offset, files, counted: await workers.searchFiles({ spec, files, maxDetails: 0 }, signal) };
    }
    return { offset, files, counted: await standing(counted, files, since, { judgeBinary: false }) };
  }

  // The first batches, once counted, whose lines reach maxResults are described at once, while the
  // rest are still counted (and, fed by the walk, confirmed): the steady broad regex's describing
  // waited for every check. Describing them again at the end is the fallback (a count did not hold).
  const countedSoFar: Counted[] = [];
  let early: { readonly batches: number; readonly results: Promise<BatchResult[]> } | undefined;
  function noteCounted(position: number, counted: Counted): void {
    countedSoFar[position] = counted;
    let lines = 0;
    for (let at = 0; early === undefined && countedSoFar[at] !== undefined; at += 1) {
      for (const [, count] of pairs(countedSoFar[at]!.counted.counts)) lines += count;
      if (lines < maxResults) continue;
      const results = describe(countedSoFar.slice(0, at + 1));
      results.catch(() => undefined); // awaited in finish(), or left for the fallback
      early = { batches: at + 1, results };
    }
  }

  /**
   * ripgrep's counts of the files that are still what it read (count-checks.ts: one link, nothing
   * on the way changed since before ripgrep started, or where that cannot be told by ctimes, the
   * file as it is now); the others are counted again by the JS engine, which reads them as the
   * sandbox does (and drops what it would not read): a window remains (SECURITY.md).
   *
   * `judgeBinary`: the counts come from ripgrep's walk, which read files as text: each file's first
   * bytes say whether the JS engine would take it for binary; UTF-16 text and UTF-8 with a
   * byte-order mark are counted again. `uncounted`: files ripgrep did not count, counted here.
   * `ctimes`: per counted file, the ctime the trigram index read it at (CountCheckJob.ctimes).
   */
  async function standing(
    counted: RipgrepCounts,
    files: AnchoredFiles,
    sinceMs: number,
    how: { readonly judgeBinary: boolean; readonly uncounted?: readonly number[]; readonly ctimes?: Float64Array },
  ): Promise<Counts> {
    const countedFiles = counted.counts.length / 2;
    const indices = new Int32Array(countedFiles + counted.binaryFiles.length);
    if (indices.length === 0 && counted.recount.length === 0 && (how.uncounted ?? []).length === 0) {
      return { counts: new Int32Array(0), sizes: new Float64Array(0), binary: 0, bytes: counted.bytes };
    }
    for (let at = 0; at < countedFiles; at += 1) indices[at] = counted.counts[at * 2]!;
    indices.set(counted.binaryFiles, countedFiles);
    const { verdicts, sizes: checkedSizes } = await checked({
      files,
      indices,
      sinceMs,
      judgeBinary: how.judgeBinary,
      ...(how.ctimes === undefined ? {} : { ctimes: how.ctimes }),
    });
    const counts: number[] = [];
    const sizes: number[] = [];
    const doubtful: number[] = [...counted.recount, ...(how.uncounted ?? [])];
    let binary = 0;
    verdicts.forEach((verdict, at) => {
      const index = indices[at]!;
      const binaryToRipgrep = at >= countedFiles; // a file-list count's binaryFiles
      if (verdict === COUNT_AGAIN) doubtful.push(index);
      else if (verdict === COUNT_BINARY || binaryToRipgrep) binary += 1;
      else {
        counts.push(index, counted.counts[at * 2 + 1]!);
        // Where the walk did not look its size up, the check did.
        const size = counted.sizes?.[at] ?? Infinity;
        sizes.push(Number.isFinite(size) || checkedSizes[at] === 0 ? size : checkedSizes[at]!);
      }
    });
    if (doubtful.length > 0) {
      doubtful.sort((a, b) => a - b);
      const again = await workers.searchFiles({ spec, files: pickFiles(files, doubtful), maxDetails: 0 }, signal);
      for (const [local, lines] of pairs(again.counts)) {
        counts.push(doubtful[local]!, lines);
        sizes.push(Infinity);
      }
      binary += again.binary;
    }
    return { counts: Int32Array.from(counts), sizes: Float64Array.from(sizes), binary, bytes: counted.bytes };
  }

  /** The check of many files shared out among the file threads, of a few made here. */
  async function checked(job: CountCheckJob): Promise<CountChecks> {
    if (job.indices.length < minThreadChecks) return checkCounts(job);
    const share = Math.ceil(job.indices.length / workers.size);
    const parts = await Promise.all(
      Array.from({ length: workers.size }, (_, part) =>
        // A copy of its share: a view would carry every index to each thread.
        workers.checkCounts(
          {
            ...job,
            indices: job.indices.slice(part * share, (part + 1) * share),
            ...(job.ctimes === undefined ? {} : { ctimes: job.ctimes.slice(part * share, (part + 1) * share) }),
          },
          signal,
        ),
      ),
    );
    const verdicts = new Uint8Array(job.indices.length);
    const sizes = new Float64Array(job.indices.length);
    // Each share where the one before ended (the last ones may be empty: 5 files, 4 threads).
    let offset = 0;
    for (const part of parts) {
      verdicts.set(part.verdicts, offset);
      sizes.set(part.sizes, offset);
      offset += part.verdicts.length;
    }
    return { verdicts, sizes };
  }

  /** Describes the first matching files in walk order until `wanted` lines are (or none is left). */
  async function describe(batches: Counted[], wanted = maxResults): Promise<BatchResult[]> {
    const results = batches.map(({ offset, counted }) => ({
      offset,
      counts: new Map<number, number>(pairs(counted.counts)),
      sizes: new Map<number, number>(
        [...pairs(counted.counts)].map(([index], at) => [index, counted.sizes?.[at] ?? Infinity]),
      ),
      files: [] as FileMatches[],
      binary: counted.binary,
      bytes: counted.bytes,
    }));
    const queue = results.flatMap((batch, at) =>
      [...batch.counts.keys()].sort((a, b) => a - b).map((index) => ({ at, index })),
    );
    let described = 0;
    while (described < wanted && queue.length > 0) {
      // Enough files to describe what is missing, if their counts hold.
      const picked: { at: number; index: number }[] = [];
      for (let expected = 0; expected < wanted - described && queue.length > 0;) {
        const next = queue.shift()!;
        picked.push(next);
        expected += results[next.at]!.counts.get(next.index)!;
      }
      const byBatch = new Map<number, number[]>();
      for (const { at, index } of picked) {
        const indices = byBatch.get(at) ?? [];
        indices.push(index);
        byBatch.set(at, indices);
      }
      const jobs = [...byBatch].flatMap(([at, indices]) => {
        // A worker thread's start costs more than describing a few small files' literal matches
        // here; a regex (it could backtrack for ever) or big files go to the workers, shared out
        // among them (a broad regex's first thousand lines: as many small files).
        const sizeOf = (index: number) => results[at]!.sizes.get(index)!;
        const bytes = indices.reduce((sum, index) => sum + sizeOf(index), 0);
        const here = spec.mode !== 'utf8' && bytes <= inProcessBytes;
        const parts =
          here || indices.length < minSharedFiles
            ? [indices]
            : shareOut(indices, sizeOf, workers.size, fileCostBytes(spec));
        return parts.map((part) => ({ at, indices: part, here }));
      });
      const found = await Promise.all(
        jobs.map(async ({ at, indices, here }) => {
          // Their counts stand (checked): each file is read only until the lines still missing are
          // described (no file gives more than those: results are taken in the files' order).
          const job = {
            spec,
            files: pickFiles(batches[at]!.files, indices),
            maxDetails: wanted - described,
            stopWhenDescribed: true,
          };
          const result = here ? searchFilesNow(job) : await workers.searchFiles(job, signal);
          return { at, indices, result };
        }),
      );
      for (const { at, indices, result } of found) {
        const batch = results[at]!;
        // What the sandbox read is what counts for these files (the same, unless they changed); a
        // file it stopped reading once described keeps the count that stood, or what it found if
        // more (the file changed since). One it did not read (gone, binary now, refused) counts no more.
        const stood = new Map(indices.map((index) => [index, batch.counts.get(index)!]));
        const partly = new Set(result.stopped ?? []);
        for (const index of indices) batch.counts.delete(index);
        for (const [local, lines] of pairs(result.counts)) {
          const index = indices[local]!;
          batch.counts.set(index, partly.has(local) ? Math.max(stood.get(index)!, lines) : lines);
        }
        for (const file of result.files) {
          const index = indices[file.index]!;
          batch.files.push({ ...file, index, count: batch.counts.get(index)! });
          described += file.hits.length;
        }
        batch.binary += result.binary;
      }
    }
    return results.map((batch): BatchResult => ({
      offset: batch.offset,
      result: {
        files: batch.files.sort((a, b) => a.index - b.index),
        counts: Int32Array.from([...batch.counts].flat()),
        bytes: batch.bytes,
        binary: batch.binary,
      } satisfies SearchJobResult,
    }));
  }

  return {
    name: 'ripgrep',
    // Fewer, bigger batches: a process start costs more than a worker message (and the command
    // line has room for a few thousand paths; Windows' 32k characters for far fewer).
    // Each start forks this (big) process: measured ~20 ms a start on the bench machine, so 8192.
    // With the walk's counts no process starts: smaller batches start the checks sooner while the
    // confirming walk goes on (search-in-code.ts streams its candidates).
    batchFiles: batchFiles ?? (walkCounts !== undefined ? WALK_BATCH_FILES : process.platform === 'win32' ? 200 : 8192),
    add: (offset, files) => {
      positions.set(offset, positions.size);
      queue.add(offset, files);
    },
    finish: async () => {
      const all = await queue.finish();
      const first = early === undefined ? undefined : await early.results;
      const lines = (first ?? []).reduce(
        (sum, batch) => sum + batch.result.files.reduce((hits, file) => hits + file.hits.length, 0),
        0,
      );
      if (first === undefined || lines < maxResults) return describe(all);
      return [...first, ...(await describe(all.slice(early!.batches), 0))];
    },
  };
}

/**
 * Batch `offset`'s share of the walk's counts, as a count made on its file list would give them
 * (sizes 0, unknown, as Infinity), the files ripgrep did not count, and apart, the counts of the
 * files the index vouches for with the ctime each must still have (WalkCounts.vouchedCtimes).
 */
function countedByWalk(
  walk: WalkCounts,
  offset: number,
  length: number,
): { counted: RipgrepCounts; uncounted: number[]; vouched: { counted: RipgrepCounts; ctimes: number[] } } {
  const plain = { counts: [] as number[], sizes: [] as number[] };
  const vouched = { counts: [] as number[], sizes: [] as number[] };
  const ctimes: number[] = [];
  const uncounted: number[] = [];
  let bytes = 0;
  for (let index = 0; index < length; index += 1) {
    const lines = walk.lines[offset + index] ?? -1;
    const size = walk.sizes[offset + index] ?? 0;
    const ctime = walk.vouchedCtimes?.[offset + index] ?? -1;
    bytes += size;
    if (lines < 0) uncounted.push(index);
    else if (lines > 0) {
      const into = ctime >= 0 ? vouched : plain;
      into.counts.push(index, lines);
      into.sizes.push(size > 0 ? size : Infinity);
      if (ctime >= 0) ctimes.push(ctime);
    }
  }
  const asCounts = ({ counts, sizes }: typeof plain, total: number): RipgrepCounts => ({
    counts: Int32Array.from(counts),
    sizes: Float64Array.from(sizes),
    binaryFiles: new Int32Array(0),
    recount: new Int32Array(0),
    bytes: total,
  });
  return { counted: asCounts(plain, bytes), uncounted, vouched: { counted: asCounts(vouched, 0), ctimes } };
}

/** A batch of the walk's counts: on two cores, checked in two threads of MIN_THREAD_CHECKS files each. */
export const WALK_BATCH_FILES = 2048;

/** Files to describe below this many go to one worker: a message each costs more than they do. */
const minSharedFiles = 32;

/**
 * Counts of fewer files than this are checked in this thread (~11-15 µs a file, measured): a message
 * to the file threads, and their start on a first search, cost more.
 */
const MIN_THREAD_CHECKS = 1024;

function* pairs(flat: Int32Array): Generator<[number, number]> {
  for (let i = 0; i + 1 < flat.length; i += 2) yield [flat[i]!, flat[i + 1]!];
}
