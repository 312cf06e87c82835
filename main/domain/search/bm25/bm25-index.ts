import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { BestHits } from './best-hits';
import { DiskSegment } from './disk-segment';
import { LiveSegment } from './live-segment';
import { mergeSegments } from './merge-segments';
import type { NewChunk, Segment, TermPostings } from './segment';
import { MANIFEST_FORMAT, isManifest, segmentName } from './segment-store';
import type { SegmentStore } from './segment-store';
import { chunkText } from '../chunk';
import type { ChunkOptions, TextChunk } from '../chunk';
import type { ChunkHit, SearchOptions } from '../text-index';
import { processTerm, tokenize } from '../tokenize';

/** BM25 constants as MiniSearch and Lucene use them. */
const K1 = 1.2;
const B = 0.7;
/** A heading word counts as this many occurrences in its chunk. */
const HEADING_WEIGHT = 1.5;
/**
 * The live segment goes to disk once it holds this many chunks or postings, so a build's memory stays
 * bounded whatever the workspace's size (issue 32: peak ≤ 600 MB for the whole process).
 */
const FLUSH_CHUNKS = 12_000;
const FLUSH_POSTINGS = 800_000;
/** Segments whose chunk counts are within a factor of MERGE_FACTOR are merged once there are MERGE_FACTOR of them. */
const MERGE_FACTOR = 4;
const MERGE_FLOOR_CHUNKS = 2_000;
/**
 * Segments this big are merged no more (as Lucene caps a merged segment's size), so a merge makes
 * at most ~64,000 chunks. A merge holds its output in memory until it is written: merging four of
 * ~45,000 chunks made a 40 MB segment and took 80 MB more at the build's peak (issue 32 item 7).
 * A query pays a dictionary lookup per segment, tens of microseconds: a big workspace has ten or
 * so segments instead of three.
 */
const MAX_MERGED_CHUNKS = 16_000;
/** How long setDocumentSliced holds the event loop before letting it run. */
const SLICE_MS = 8;

/** The key of a chunk's text (its vector's cache key, with the model). */
export const chunkHash = (text: string): string => createHash('sha1').update(text).digest('base64url');

/** A chunk's terms, counted (a heading word weighs HEADING_WEIGHT): the costly part of indexing. */
function countChunk(chunk: TextChunk): NewChunk {
  const counts = new Map<string, number>();
  let length = 0;
  for (const word of tokenize(chunk.text)) {
    for (const term of processTerm(word)) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      length += 1;
    }
  }
  for (const word of tokenize(chunk.heading ?? '')) {
    for (const term of processTerm(word)) counts.set(term, (counts.get(term) ?? 0) + HEADING_WEIGHT);
  }
  return {
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    heading: chunk.heading ?? '',
    length,
    hash: chunkHash(chunk.text),
    counts,
  };
}

interface FileRef {
  segment: Segment;
  file: number;
}

/**
 * A BM25 index for a whole workspace in segments, like a small Lucene: new and changed files go to a
 * live segment in memory (flat packed postings per term), which is written as an immutable segment
 * file once it is big and at each save; segments on disk keep only their chunk columns, file table
 * and a sparse term index in memory and read postings on demand (segment.ts). A removed or
 * replaced file is masked in its segment; small segments are merged. A query costs a pass over the
 * postings of its few terms in each segment (no per-match objects, no full sort: only the top k are
 * kept). TextIndex (MiniSearch, prefix and fuzzy matching) serves the small memory corpus. Same
 * tokenizer and stemmers, so both understand the same word forms.
 */
export class Bm25Index {
  private live = new LiveSegment();
  /** Oldest first: segments on disk and a live segment being written. */
  private segments: Segment[] = [];
  private readonly files = new Map<string, FileRef>();
  /** Counts changes (documents set or removed): a pass over the index can tell it has nothing new. */
  private changeCount = 0;
  private savedChanges = -1;
  private saving: Promise<unknown> = Promise.resolve();
  /** Segment files replaced by a merge: removed once a manifest without them is written. */
  private retired: DiskSegment[] = [];

  constructor(private readonly chunking: ChunkOptions) {}

  get changes(): number {
    return this.changeCount;
  }

  get documentCount(): number {
    return this.files.size;
  }

  /** The segments on disk (tests and the bench look). */
  get segmentCount(): number {
    return this.segments.length;
  }

  /** The live segment is big enough to go to disk (the caller saves). */
  get wantsFlush(): boolean {
    return this.live.slotCount >= FLUSH_CHUNKS || this.live.postingCount >= FLUSH_POSTINGS;
  }

  versionOf(path: string): string | undefined {
    const ref = this.files.get(path);
    return ref?.segment.version(ref.file);
  }

  paths(): IterableIterator<string> {
    return this.files.keys();
  }

  setDocument(path: string, text: string, version: string): void {
    this.add(path, version, chunkText(text, this.chunking).map(countChunk));
  }

  /**
   * setDocument for a build: the chunks' terms are counted a slice at a time, the event loop let
   * through between slices (counting a 1 MB file takes 150–500 ms; a query must not wait behind it,
   * issue 32 item 1). The file enters the index whole, once counted; until then the index answers
   * with what it held before. `pause`, asked between slices: a promise holds the counting until it
   * settles (while a query answers, or another tool call runs).
   */
  async setDocumentSliced(
    path: string,
    text: string,
    version: string,
    pause?: () => Promise<void> | undefined,
  ): Promise<void> {
    const counted: NewChunk[] = [];
    let sliceStart = performance.now();
    for (const chunk of chunkText(text, this.chunking)) {
      counted.push(countChunk(chunk));
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToLoop();
        const held = pause?.();
        if (held !== undefined) await held;
        sliceStart = performance.now();
      }
    }
    this.add(path, version, counted);
  }

  private add(path: string, version: string, chunks: NewChunk[]): void {
    this.removeDocument(path);
    this.changeCount += 1;
    this.files.set(path, { segment: this.live, file: this.live.addFile(path, version, chunks) });
  }

  removeDocument(path: string): void {
    const ref = this.files.get(path);
    if (ref === undefined) return;
    this.changeCount += 1;
    ref.segment.deleteFile(ref.file);
    this.files.delete(path);
  }

  private all(): Segment[] {
    return [...this.segments, this.live];
  }

  search(query: string, options: SearchOptions): ChunkHit[] {
    const terms = [...new Set(tokenize(query).flatMap((word) => processTerm(word)))];
    const segments = this.all();
    let liveChunks = 0;
    let totalLength = 0;
    for (const segment of segments) {
      liveChunks += segment.liveChunks;
      totalLength += segment.liveLength;
    }
    if (terms.length === 0 || liveChunks === 0) return [];
    const averageLength = totalLength / liveChunks || 1;
    // df sums every segment's postings (deleted chunks still count until a merge drops them, as in Lucene).
    const lists = segments.map((segment) => terms.map((term) => segment.postings(term)));
    const idfs = terms.map((_, t) => {
      let count = 0;
      for (const list of lists) count += list[t]?.count ?? 0;
      const df = Math.min(count, liveChunks);
      return Math.log(1 + (liveChunks - df + 0.5) / (df + 0.5));
    });
    // Keep the best `limit` (weights and filters applied), without sorting every match.
    const best = new BestHits(options);
    // Which query terms a chunk matched, one bit each (the hit lists them); terms past 32 still score.
    const bit = (t: number) => (t < 32 ? 1 << t : 0);
    segments.forEach((segment, s) => {
      const scores = new Float64Array(segment.slotCount);
      const termBits = new Uint32Array(segment.slotCount);
      const touched: number[] = [];
      terms.forEach((_, t) => {
        const list = (lists[s] as (TermPostings | undefined)[])[t];
        if (list === undefined) return;
        const idf = idfs[t] as number;
        for (let at = 0; at < list.count; at += 1) {
          const slot = list.slots[at] as number;
          if (segment.chunkDead(slot)) continue;
          const tf = (list.tf2[at] as number) / 2;
          if (scores[slot] === 0) touched.push(slot); // every match adds a positive amount
          scores[slot] =
            (scores[slot] as number) +
            (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * segment.chunkLength(slot)) / averageLength));
          termBits[slot] = (termBits[slot] as number) | bit(t);
        }
      });
      // In slot order: the same order whichever segments hold the chunks (a merge changes no answer).
      const order = Int32Array.from(touched).sort();
      for (const slot of order) {
        const raw = scores[slot] as number;
        if (options.weight === undefined && !best.admits(raw)) continue;
        const path = segment.path(segment.chunkFile(slot));
        if (!best.allows(path)) continue;
        const score = raw * (options.weight?.(path) ?? 1);
        if (!best.admits(score)) continue;
        const bits = termBits[slot] as number;
        best.add(
          segment,
          slot,
          path,
          score,
          terms.filter((_, t) => (bits & bit(t)) !== 0),
        );
      }
    });
    return best.hits;
  }

  /** The content hashes of a file's chunks (empty when it is not indexed). */
  chunkHashes(path: string): string[] {
    const ref = this.files.get(path);
    if (ref === undefined) return [];
    const { segment, file } = ref;
    const first = segment.firstChunk(file);
    const hashes: string[] = [];
    for (let slot = first; slot < first + segment.chunkCount(file); slot += 1) hashes.push(segment.hash(slot));
    return hashes;
  }

  /**
   * The chunks nearest to a query vector by `scoreOf` (the cosine, from the vector cache), among
   * those that have a vector; the best `limit`, filters applied.
   */
  vectorSearch(scoreOf: (hash: string) => number | undefined, options: SearchOptions): ChunkHit[] {
    const best = new BestHits(options);
    for (const segment of this.all()) {
      for (let slot = 0; slot < segment.slotCount; slot += 1) {
        if (segment.chunkDead(slot)) continue;
        const score = scoreOf(segment.hash(slot));
        if (score === undefined) continue;
        if (!best.admits(score)) continue;
        // The filter (concealment, deny-list globs) only for the few that would make the list.
        const path = segment.path(segment.chunkFile(slot));
        if (!best.allows(path)) continue;
        best.add(segment, slot, path, score, []);
      }
    }
    return best.hits;
  }

  /**
   * Opens the saved segments the manifest names (their heads only: tens of milliseconds); anything
   * else in the folder is a crash's leftover and goes. A torn or foreign manifest, or a segment that
   * does not open, leaves the index empty for the scan to rebuild (a cache). Answers whether it opened.
   */
  async load(store: SegmentStore, root: string): Promise<boolean> {
    const manifest = await store.readManifest().catch(() => undefined);
    const opened: DiskSegment[] = [];
    let ok = false;
    if (isManifest(manifest) && manifest.format === MANIFEST_FORMAT && manifest.root === root) {
      ok = true;
      for (const entry of manifest.segments) {
        const file = store.open(entry.name);
        try {
          if (file === undefined) throw new Error('missing segment');
          const segment = new DiskSegment(entry.name, file);
          for (const deleted of entry.deleted) segment.deleteFile(deleted);
          opened.push(segment);
        } catch {
          file?.close();
          ok = false;
          break;
        }
      }
    }
    if (!ok) for (const segment of opened.splice(0)) segment.close();
    const named = new Set(opened.map((segment) => segment.name));
    for (const name of await store.list()) if (!named.has(name)) await store.remove(name).catch(() => undefined);
    for (const segment of opened) {
      for (let file = 0; file < segment.fileCount; file += 1) {
        if (segment.fileDeleted(file)) continue;
        const path = segment.path(file);
        const earlier = this.files.get(path);
        // One live copy of a path: a later segment's (or the live segment's, indexed before the load) wins.
        if (earlier?.segment === this.live) segment.deleteFile(file);
        else {
          earlier?.segment.deleteFile(earlier.file);
          this.files.set(path, { segment, file });
        }
      }
    }
    this.segments = [...opened, ...this.segments];
    this.savedChanges = ok ? this.changeCount : -1;
    return ok;
  }

  /**
   * Flushes the live segment to a segment file, merges small segments, then writes the manifest
   * (never the whole index). One save at a time; the index answers and changes meanwhile: a file
   * removed while its segment was being written is masked in the new one.
   */
  save(store: SegmentStore, root: string): Promise<void> {
    const next = this.saving.then(() => this.saveNow(store, root));
    this.saving = next.catch(() => undefined);
    return next;
  }

  private async saveNow(store: SegmentStore, root: string): Promise<void> {
    if (this.changeCount === this.savedChanges && this.live.fileCount === 0) return;
    if (this.live.fileCount > 0) {
      // Frozen: it stays searchable until its file is written; new documents go to a new live segment.
      this.segments.push(this.live);
      this.live = new LiveSegment();
    }
    // Every frozen segment (one left by a save that failed, too) becomes a file.
    for (const frozen of this.segments.filter((segment) => segment instanceof LiveSegment)) {
      const { parts, fileMap } = await frozen.encode();
      let written: DiskSegment | undefined;
      if (fileMap.some((file) => file !== -1)) {
        const name = segmentName();
        written = new DiskSegment(name, await store.write(name, parts));
      }
      this.replace([frozen], written, [fileMap]);
    }
    await this.mergeSmall(store);
    const changes = this.changeCount;
    const segments = this.segments.filter((segment) => segment instanceof DiskSegment);
    await store.writeManifest({
      format: MANIFEST_FORMAT,
      root,
      segments: segments.map((segment) => ({ name: segment.name, deleted: segment.deletedList() })),
    });
    this.savedChanges = changes;
    for (const segment of this.retired.splice(0)) {
      segment.close();
      await store.remove(segment.name).catch(() => undefined);
    }
  }

  /** Puts `next` in the place of `old` (the first of them), moving their live files' references. */
  private replace(old: readonly Segment[], next: DiskSegment | undefined, fileMaps: readonly Int32Array[]): void {
    old.forEach((segment, s) => {
      const map = fileMaps[s] as Int32Array;
      for (let file = 0; file < segment.fileCount; file += 1) {
        const to = map[file] as number;
        if (to === -1) continue;
        const path = segment.path(file);
        const ref = this.files.get(path);
        // Removed or replaced while the new segment was written: masked there too.
        if (next === undefined) continue;
        if (ref?.segment === segment && ref.file === file) this.files.set(path, { segment: next, file: to });
        else next.deleteFile(to);
      }
    });
    const at = this.segments.indexOf(old[0] as Segment);
    this.segments = this.segments.filter((segment) => !old.includes(segment));
    if (next !== undefined) this.segments.splice(at, 0, next);
    for (const segment of old) if (segment instanceof DiskSegment) this.retired.push(segment);
  }

  /** Merges segments of about the same size once there are MERGE_FACTOR of them, and rewrites mostly deleted ones. */
  private async mergeSmall(store: SegmentStore): Promise<void> {
    for (;;) {
      const disk = this.segments.filter((segment): segment is DiskSegment => segment instanceof DiskSegment);
      const levels = new Map<number, DiskSegment[]>();
      let group: DiskSegment[] | undefined;
      for (const segment of disk) {
        if (segment.deadChunks > 1000 && segment.deadChunks > segment.liveChunks) {
          group = [segment];
          break;
        }
        if (segment.slotCount >= MAX_MERGED_CHUNKS) continue;
        const level = Math.floor(
          Math.log(Math.max(1, segment.slotCount / MERGE_FLOOR_CHUNKS)) / Math.log(MERGE_FACTOR),
        );
        const same = levels.get(level) ?? [];
        same.push(segment);
        levels.set(level, same);
        if (same.length >= MERGE_FACTOR) {
          group = same;
          break;
        }
      }
      if (group === undefined) return;
      const { parts, fileMaps } = await mergeSegments(group);
      const name = segmentName();
      const merged = fileMaps.some((map) => map.some((file) => file !== -1))
        ? new DiskSegment(name, await store.write(name, parts))
        : undefined;
      this.replace(group, merged, fileMaps);
    }
  }

  /** Closes the segment files once a save under way is done (the index is not used after). */
  async close(): Promise<void> {
    await this.saving;
    for (const segment of [...this.segments, ...this.retired]) if (segment instanceof DiskSegment) segment.close();
  }
}
