import { NGRAM_ALWAYS, NGRAM_BINARY, NGRAM_INDEXED, NGRAM_RACY } from '../../../platform/search-engines/ngram-types';
import type { NgramSegment } from '../../../platform/search-engines/ngram-types';
import { Segment, evaluate, planKeys } from './ngram-segment';
import type { EncodedTable, Postings } from './ngram-segment';
import { PathTable } from './path-table';
import type { SavedPaths } from './path-table';
import type { TrigramPlan } from './trigram-plan';

/** What a query does with a file its walk found. */
export const FileVerdict = {
  /** Indexed, unchanged, and lacks a trigram the query needs: cannot match. */
  Skip: 0,
  /** Indexed, unchanged and binary: the scan would skip it too (and count it). */
  Binary: 1,
  /** A candidate: search it. */
  Search: 2,
  /** Not in the index, or changed since it was indexed: search it, and index it again. */
  Stale: 3,
} as const;
export type FileVerdict = (typeof FileVerdict)[keyof typeof FileVerdict];

/** A file number whose file was indexed again or forgotten. */
export const DEAD = 255;

/** An index's contents as saved (ngram-file.ts). */
export interface IndexParts {
  readonly paths: SavedPaths;
  readonly sizes: Float64Array;
  readonly ctimes: Float64Array;
  readonly flags: Uint8Array;
  readonly textBytes: number;
  readonly segments: readonly {
    readonly base: number;
    readonly count: number;
    readonly table: EncodedTable;
    readonly postings: Postings;
  }[];
  /** The saved file the postings are read from, while some are on disk. */
  readonly file?: { close(): Promise<void> };
}

/** A query's verdict on each file its walk finds; `share`: candidates among the indexed files (0..1). */
export type FileSelector = ((path: string, size: number, ctimeMs: number) => FileVerdict) & {
  readonly share: number;
  /**
   * The verdict on a file the change watcher vouches for (unchanged since it was indexed), without
   * its facts. Stale: not indexed, or indexed too soon after a write (racy): look at it.
   */
  readonly known: (path: string) => FileVerdict;
  /**
   * Every live file of the index with the verdict `known` would give it, without looking each path
   * up again (a listing of 60k files: a third of the time).
   */
  readonly eachKnown: (visit: (path: string, verdict: FileVerdict) => void) => void;
  /** eachKnown by file number: the path only where the caller asks for it (pathOf). */
  readonly eachKnownId: (visit: (id: number, verdict: FileVerdict) => void) => void;
  readonly pathOf: (id: number) => string;
  /** The live number of `path`, if it has one. */
  readonly idOf: (path: string) => number | undefined;
};

/**
 * The trigram index of a workspace's text files (issue 16 item 4): per file its workspace path,
 * size and ctime when indexed, and a state; per segment of files (one worker job) the sorted
 * trigram keys with varint delta-encoded posting lists. A file indexed again lands in a new segment
 * and its old number dies. Queries check every walked file's size and ctime against the table, so a
 * change nobody reported yet still makes the file a candidate: answers stay exact.
 */
export class NgramIndex {
  private paths = new PathTable();
  private sizes: Float64Array = new Float64Array(1024);
  private ctimes: Float64Array = new Float64Array(1024);
  private flags: Uint8Array = new Uint8Array(1024);
  private readonly segments: Segment[] = [];
  private deadFiles = 0;
  private file: { close(): Promise<void> } | undefined;
  /** Text bytes read into live segments (approximately: a dead file's bytes stay counted). */
  textBytes = 0;

  get files(): number {
    return this.paths.length - this.deadFiles;
  }

  /** File numbers given out, live and dead (each file indexed again takes a new one). */
  get fileNumbers(): number {
    return this.paths.length;
  }

  get deadShare(): number {
    return this.paths.length === 0 ? 0 : this.deadFiles / this.paths.length;
  }

  /** Bytes the posting lists and keys take in memory. */
  get memoryBytes(): number {
    let total = this.paths.length * 17;
    for (const segment of this.segments) total += segment.memoryBytes;
    return total;
  }

  /** Bytes of posting lists held in memory (0 while they are read from the saved file). */
  get postingsInMemory(): number {
    let total = 0;
    for (const segment of this.segments) if (segment.onDisk === undefined) total += segment.postingBytes;
    return total;
  }

  /** Adds a worker's segment for `paths` (the job's files, in order); older entries of these paths die. */
  add(paths: readonly string[], segment: NgramSegment): void {
    const base = this.paths.length;
    this.grow(base + paths.length);
    paths.forEach((path, i) => {
      const previous = this.paths.idOf(path);
      if (previous !== undefined && this.flags[previous] !== DEAD) {
        this.flags[previous] = DEAD;
        this.deadFiles += 1;
      }
      this.paths.point(path, this.paths.push(path));
      this.sizes[base + i] = segment.sizes[i]!;
      this.ctimes[base + i] = segment.ctimes[i]!;
      this.flags[base + i] = segment.flags[i]!;
    });
    this.textBytes += segment.bytes;
    if (segment.keys.length > 0) {
      this.segments.push(new Segment(base, paths.length, { keys: segment.keys, ends: segment.ends }, segment.postings));
    }
  }

  /** Forgets files (deleted, or no longer in the walk): their numbers die. */
  remove(paths: Iterable<string>): void {
    for (const path of paths) {
      const id = this.paths.idOf(path);
      if (id === undefined) continue;
      this.paths.point(path, undefined);
      if (this.flags[id] !== DEAD) {
        this.flags[id] = DEAD;
        this.deadFiles += 1;
      }
    }
  }

  /**
   * The size and ctime `path` had when it was indexed, where it was indexed as plain text: read
   * whole, one link, no NUL in its head, no byte-order mark, not UTF-16, not written just before
   * (racy). Undefined for any other path. While it keeps that ctime, ripgrep reads it as the JS
   * engine does.
   */
  plainText(path: string): { readonly size: number; readonly ctimeMs: number } | undefined {
    const id = this.paths.idOf(path);
    return id === undefined || this.flags[id] !== NGRAM_INDEXED
      ? undefined
      : { size: this.sizes[id]!, ctimeMs: this.ctimes[id]! };
  }

  /** Workspace paths of the live files (for a full walk to tell which vanished). */
  livePaths(): string[] {
    return this.paths.live();
  }

  /**
   * Reads what `plan` needs of postings still on disk (a saved index being read): call before
   * `selector`, which otherwise lets such a segment's files all be candidates.
   */
  async prepare(plan: TrigramPlan): Promise<void> {
    if (this.file === undefined || plan.op === 'all') return;
    const keys = planKeys(plan);
    await Promise.all(this.segments.map((segment) => segment.prepare(keys)));
  }

  /** Reads every posting list still on disk (one read), then lets go of the file. */
  async loadPostings(): Promise<void> {
    const file = this.file;
    if (file === undefined) return;
    const lazy = this.segments.flatMap((segment) => {
      const disk = segment.onDisk;
      return disk === undefined ? [] : [{ segment, disk }];
    });
    if (lazy.length > 0) {
      const start = Math.min(...lazy.map(({ disk }) => disk.offset));
      const end = Math.max(...lazy.map(({ disk }) => disk.offset + disk.length));
      const bytes = await lazy[0]!.disk.source.read(start, end - start);
      for (const { segment, disk } of lazy)
        segment.fill(bytes.subarray(disk.offset - start, disk.offset - start + disk.length));
    }
    this.file = undefined;
    await file.close();
  }

  /** Lets go of the saved file, if postings are still read from it. */
  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  /**
   * The files that may match `plan`: a selector telling, for each walked file, whether to search
   * it. Cheap: the plan's posting lists are decoded once, here. Undefined when the plan leaves more
   * than `atMost` candidates, told segment by segment as soon as the count passes it: a broad
   * regex's plan (its trigrams in nearly every file) then has its lists decoded and intersected in a
   * few segments instead of all (7-16 ms on 30k files, measured). An index opened from disk has read
   * the plan's lists and each segment's key table in prepare() already; an index with no live file
   * and more dead candidates than `atMost` counts as many too (ripgrep then walks).
   */
  selector(plan: TrigramPlan): FileSelector;
  selector(plan: TrigramPlan, atMost: number): FileSelector | undefined;
  selector(plan: TrigramPlan, atMost = Infinity): FileSelector | undefined {
    if (plan.op === 'all' && this.files > atMost) return undefined;
    const marked = plan.op === 'all' ? undefined : this.candidates(plan, atMost);
    if (marked === null) return undefined;
    const candidates = marked?.marks;
    const share = marked === undefined || this.files === 0 ? 1 : marked.count / this.files;
    const verdict = (path: string, size: number, ctimeMs: number): FileVerdict => {
      const id = this.paths.idOf(path);
      if (id === undefined || this.sizes[id] !== size || this.ctimes[id] !== ctimeMs) return FileVerdict.Stale;
      return verdictOf(id);
    };
    const known = (path: string): FileVerdict => {
      const id = this.paths.idOf(path);
      return id === undefined ? FileVerdict.Stale : verdictOf(id);
    };
    const verdictOf = (id: number): FileVerdict => {
      const flag = this.flags[id]!;
      if (flag === NGRAM_RACY || flag === DEAD) return FileVerdict.Stale;
      if (flag === NGRAM_BINARY) return FileVerdict.Binary;
      // A file indexed again after the plan was evaluated (a refresh during this query's walk) has
      // a number beyond the marks: searched.
      if (flag === NGRAM_ALWAYS || candidates === undefined || id >= candidates.length || candidates[id] === 1) {
        return FileVerdict.Search;
      }
      return FileVerdict.Skip;
    };
    const eachKnownId = (visit: (id: number, verdict: FileVerdict) => void) =>
      this.paths.forEachLiveId((id) => visit(id, verdictOf(id)));
    const pathOf = (id: number) => this.paths.pathOf(id);
    const eachKnown = (visit: (path: string, verdict: FileVerdict) => void) =>
      eachKnownId((id, verdict) => visit(pathOf(id), verdict));
    const idOf = (path: string) => this.paths.idOf(path);
    return Object.assign(verdict, { share, known, eachKnown, eachKnownId, pathOf, idOf });
  }

  /**
   * One mark per file number (1: a candidate) and how many are marked (segments hold disjoint file
   * numbers, each list once per number); null once more than `atMost` are marked.
   */
  private candidates(plan: TrigramPlan, atMost: number): { marks: Uint8Array; count: number } | null {
    const marks = new Uint8Array(this.paths.length);
    let count = 0;
    for (const segment of this.segments) {
      const local = evaluate(plan, segment);
      if (local === 'all') marks.fill(1, segment.base, segment.base + segment.count);
      else for (let i = 0; i < local.length; i += 1) marks[segment.base + local[i]!] = 1;
      count += local === 'all' ? segment.count : local.length;
      if (count > atMost) return null;
    }
    return { marks, count };
  }

  private grow(length: number): void {
    if (length <= this.sizes.length) return;
    const capacity = Math.max(length, this.sizes.length * 2);
    const sizes = new Float64Array(capacity);
    sizes.set(this.sizes);
    this.sizes = sizes;
    const ctimes = new Float64Array(capacity);
    ctimes.set(this.ctimes);
    this.ctimes = ctimes;
    const flags = new Uint8Array(capacity);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** What ngram-file.ts saves: the path table and per-file columns, each segment's encoded tables. */
  parts(): IndexParts {
    const n = this.paths.length;
    return {
      paths: this.paths.encode((id) => this.flags[id] !== DEAD),
      sizes: this.sizes.subarray(0, n),
      ctimes: this.ctimes.subarray(0, n),
      flags: this.flags.subarray(0, n),
      textBytes: this.textBytes,
      segments: this.segments.map((segment) => ({
        base: segment.base,
        count: segment.count,
        table: segment.encoded(),
        postings: segment.postings,
      })),
    };
  }

  /**
   * An index read back by ngram-file.ts (which checked the parts add up). It takes the parts'
   * arrays as its own: they must be no other index's (ngram-file.ts makes them for it).
   */
  static fromParts(parts: IndexParts): NgramIndex {
    const index = new NgramIndex();
    const n = parts.paths.count;
    index.paths = new PathTable(parts.paths);
    // Kept, not copied: grow() copies them once files are added.
    index.sizes = parts.sizes;
    index.ctimes = parts.ctimes;
    index.flags = parts.flags;
    for (let id = 0; id < n; id += 1) if (parts.flags[id] === DEAD) index.deadFiles += 1;
    index.textBytes = parts.textBytes;
    index.file = parts.file;
    for (const segment of parts.segments) {
      index.segments.push(new Segment(segment.base, segment.count, segment.table, segment.postings));
    }
    return index;
  }

  /** Lists read from disk and kept, over all segments (tests: bounded). */
  get keptLists(): number {
    return this.segments.reduce((sum, segment) => sum + segment.keptLists, 0);
  }

  /** Segments whose key tables have been decoded (tests: opening a saved index decodes none). */
  get decodedSegments(): number {
    return this.segments.filter((segment) => segment.decoded).length;
  }
}
