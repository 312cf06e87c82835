import { ColumnSegment, TF_RANGE, packPosting } from './segment';
import type { NewChunk, TermPostings } from './segment';
import { SegmentWriter, slicer, writeLiveFiles } from './segment-writer';
import { ownCopy } from '../tokenize';

/** The segment for new and changed files: today's in-memory index (flat packed postings per term). */
export class LiveSegment extends ColumnSegment {
  protected readonly paths: string[] = [];
  protected readonly versions: string[] = [];
  protected readonly firsts: number[] = [];
  protected readonly counts: number[] = [];
  private readonly deleted: boolean[] = [];
  protected readonly chunkFiles: number[] = [];
  protected readonly starts: number[] = [];
  protected readonly ends: number[] = [];
  protected readonly lengths: number[] = [];
  private readonly headings: string[] = [];
  private readonly hashes: string[] = [];
  /** Term → packed postings (packPosting), slots ascending. */
  readonly terms = new Map<string, number[]>();
  postingCount = 0;

  get slotCount(): number {
    return this.chunkFiles.length;
  }

  get fileCount(): number {
    return this.paths.length;
  }

  addFile(path: string, version: string, chunks: readonly NewChunk[]): number {
    const file = this.paths.length;
    this.paths.push(path);
    this.versions.push(version);
    this.firsts.push(this.chunkFiles.length);
    this.counts.push(chunks.length);
    this.deleted.push(false);
    let heading: { of: string; own: string } | undefined;
    for (const chunk of chunks) {
      const slot = this.chunkFiles.length;
      this.chunkFiles.push(file);
      this.starts.push(chunk.startLine);
      this.ends.push(chunk.endLine);
      this.lengths.push(chunk.length);
      // A slice of the file's text: its own copy is kept, not the whole text (one per run of chunks).
      if (heading?.of !== chunk.heading) heading = { of: chunk.heading, own: ownCopy(chunk.heading) };
      this.headings.push(heading.own);
      this.hashes.push(chunk.hash);
      for (const [term, tf] of chunk.counts) {
        const list = this.terms.get(term);
        if (list === undefined) this.terms.set(term, [packPosting(slot, tf)]);
        else list.push(packPosting(slot, tf));
      }
      this.postingCount += chunk.counts.size;
      this.liveChunks += 1;
      this.liveLength += chunk.length;
    }
    return file;
  }

  fileDeleted(file: number) {
    return this.deleted[file] === true;
  }
  chunkDead(slot: number) {
    return this.deleted[this.chunkFiles[slot] as number] === true;
  }
  heading(slot: number) {
    return this.headings[slot] as string;
  }
  hash(slot: number) {
    return this.hashes[slot] as string;
  }
  hashBytes(slot: number) {
    return Buffer.from(this.hashes[slot] as string, 'base64url');
  }

  protected markFileDeleted(file: number): boolean {
    if (this.deleted[file] !== false) return false;
    this.deleted[file] = true;
    return true;
  }

  /** A chunk is dead through its file here (chunkDead). */
  protected markChunkDeleted(): void {}

  postings(term: string): TermPostings | undefined {
    const list = this.terms.get(term);
    if (list === undefined) return undefined;
    return {
      count: list.length,
      slots: list.map((posting) => Math.floor(posting / TF_RANGE)),
      tf2: list.map((posting) => posting % TF_RANGE),
    };
  }

  /** This segment's live files as a segment file; `fileMap` answers each file's number in it (-1: left out). */
  async encode(): Promise<{ parts: Buffer[]; fileMap: Int32Array }> {
    const pause = slicer();
    const writer = new SegmentWriter();
    const { fileMap, slotMap } = writeLiveFiles(writer, this);
    const slots: number[] = [];
    const tf2: number[] = [];
    for (const term of [...this.terms.keys()].sort()) {
      slots.length = 0;
      tf2.length = 0;
      for (const posting of this.terms.get(term) as number[]) {
        const slot = slotMap[Math.floor(posting / TF_RANGE)] as number;
        if (slot === -1) continue;
        slots.push(slot);
        tf2.push(posting % TF_RANGE);
      }
      if (slots.length > 0) writer.addTerm(term, slots, tf2);
      await pause();
    }
    return { parts: writer.finish(), fileMap };
  }
}
