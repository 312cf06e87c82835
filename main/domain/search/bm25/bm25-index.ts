import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { BestHits } from './best-hits';
import { countChunk } from './count-chunk';
import { DiskSegment } from './disk-segment';
import { LiveSegment } from './live-segment';
import { nextMergeGroup } from './merge-policy';
import { mergeSegments } from './merge-segments';
import { scoreSegments } from './score-segments';
import type { NewChunk, Segment } from './segment';
import { MANIFEST_FORMAT, isManifest, segmentName } from './segment-store';
import type { SegmentStore } from './segment-store';
import { chunkText } from '../chunk';
import type { ChunkOptions } from '../chunk';
import type { ChunkHit, SearchOptions } from '../text-index';

export { chunkHash } from './count-chunk';

/**
 * The live segment goes to disk once it holds this many chunks or postings, so a build's memory stays
 * bounded whatever the workspace's size (issue 32: peak ≤ 600 MB for the whole process).
 */
const FLUSH_CHUNKS = 12_000;
const FLUSH_POSTINGS = 800_000;
/** How long setDocumentSliced holds the event loop before letting it run. */
const SLICE_MS = 8;

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
 * kept; score-segments.ts). TextIndex (MiniSearch, prefix and fuzzy matching) serves the small
 * memory corpus. Same tokenizer and stemmers, so both understand the same word forms.
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
    return scoreSegments(this.all(), query, options);
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

  /**
   * Merges segments of about the same size once there are MERGE_FACTOR of them, and rewrites mostly
   * deleted ones (merge-policy.ts).
   */
  private async mergeSmall(store: SegmentStore): Promise<void> {
    for (;;) {
      const group = nextMergeGroup(this.segments);
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
