import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { HASH_BYTES, MAGIC, PREFIX, SPARSE_EVERY, VERSION, pad4 } from './segment-format';
import type { Header } from './segment-format';
import { Bytes } from './segment-bytes';
import type { Segment } from './segment';

/** Writing or merging a big segment gives the event loop a turn this often (a query waits at most that). */
const WORK_SLICE_MS = 40;

/** Awaits a turn of the event loop once a slice of work has run (queries answer during a flush or merge). */
export function slicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < WORK_SLICE_MS) return undefined;
    return yieldToLoop().then(() => {
      since = performance.now();
    });
  };
}

/**
 * Copies a segment's live files and their chunks into a writer, in order; answers each file's number
 * in the writer and each chunk slot's (-1: deleted, left out). Its terms come after, mapped by slotMap.
 */
export function writeLiveFiles(writer: SegmentWriter, input: Segment): { fileMap: Int32Array; slotMap: Int32Array } {
  const fileMap = new Int32Array(input.fileCount).fill(-1);
  const slotMap = new Int32Array(input.slotCount).fill(-1);
  for (let file = 0; file < input.fileCount; file += 1) {
    if (input.fileDeleted(file)) continue;
    fileMap[file] = writer.addFile(input.path(file), input.version(file));
    const first = input.firstChunk(file);
    for (let slot = first; slot < first + input.chunkCount(file); slot += 1) {
      slotMap[slot] = writer.chunkCount;
      writer.addChunk(
        writer.fileCount - 1,
        input.startLine(slot),
        input.endLine(slot),
        input.chunkLength(slot),
        input.heading(slot),
        input.hashBytes(slot),
      );
    }
  }
  return { fileMap, slotMap };
}

/** Builds a segment file: files, then their chunks, then terms in sorted order. */
export class SegmentWriter {
  private readonly paths: string[] = [];
  private readonly versions: string[] = [];
  private readonly firsts: number[] = [];
  private readonly counts: number[] = [];
  private readonly chunkFiles: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly lengths: number[] = [];
  private readonly headingRefs: number[] = [];
  private readonly headings: string[] = [];
  private readonly headingIds = new Map<string, number>();
  private readonly hashes = new Bytes();
  private readonly dict = new Bytes();
  private readonly postingBytes = new Bytes();
  private readonly sparseTerms: string[] = [];
  private readonly sparseDict: number[] = [];
  private readonly sparsePostings: number[] = [];
  private terms = 0;

  get chunkCount(): number {
    return this.chunkFiles.length;
  }

  get fileCount(): number {
    return this.paths.length;
  }

  addFile(path: string, version: string): number {
    this.paths.push(path);
    this.versions.push(version);
    this.firsts.push(this.chunkFiles.length);
    this.counts.push(0);
    return this.paths.length - 1;
  }

  addChunk(file: number, startLine: number, endLine: number, length: number, heading: string, hash: Buffer): void {
    this.chunkFiles.push(file);
    this.starts.push(startLine);
    this.ends.push(endLine);
    this.lengths.push(length);
    let ref = -1;
    if (heading !== '') {
      ref = this.headingIds.get(heading) ?? this.headings.length;
      if (ref === this.headings.length) {
        this.headings.push(heading);
        this.headingIds.set(heading, ref);
      }
    }
    this.headingRefs.push(ref);
    this.hashes.bytes(hash.subarray(0, HASH_BYTES));
    this.counts[file] = (this.counts[file] as number) + 1;
  }

  /** A term's postings (slots ascending); terms come in sorted order. */
  addTerm(term: string, slots: readonly number[], tf2: readonly number[]): void {
    if (this.terms % SPARSE_EVERY === 0) {
      this.sparseTerms.push(term);
      this.sparseDict.push(this.dict.length);
      this.sparsePostings.push(this.postingBytes.length);
    }
    this.terms += 1;
    const start = this.postingBytes.length;
    let previous = 0;
    for (let at = 0; at < slots.length; at += 1) {
      this.postingBytes.varint((slots[at] as number) - previous);
      previous = slots[at] as number;
      this.postingBytes.varint(tf2[at] as number);
    }
    const name = Buffer.from(term, 'utf8');
    this.dict.varint(name.length);
    this.dict.bytes(name);
    this.dict.varint(slots.length);
    this.dict.varint(this.postingBytes.length - start);
  }

  /**
   * The segment file's bytes, in order, as parts written one after another (store.write): joined
   * into one buffer they would be held twice, and a merge's output is tens of megabytes.
   */
  finish(): Buffer[] {
    const dict = this.dict.result();
    const postings = this.postingBytes.result();
    const header: Header = {
      files: this.paths.length,
      chunks: this.chunkFiles.length,
      terms: this.terms,
      dictBytes: this.dict.length,
      postingsBytes: this.postingBytes.length,
      paths: this.paths,
      versions: this.versions,
      headings: this.headings,
      sparseTerms: this.sparseTerms,
      sparseDict: this.sparseDict,
      sparsePostings: this.sparsePostings,
    };
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const columns = [
      Uint32Array.from(this.chunkFiles),
      Uint32Array.from(this.starts),
      Uint32Array.from(this.ends),
      Uint32Array.from(this.lengths),
      Int32Array.from(this.headingRefs),
      Uint32Array.from(this.firsts),
      Uint32Array.from(this.counts),
    ].map((array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength));
    const hashes = this.hashes.result();
    const headBytes =
      PREFIX + json.length + pad4(PREFIX + json.length) + columns.reduce((sum, column) => sum + column.length, 0);
    const hashBytes = this.hashes.length;
    const headTotal = headBytes + hashBytes + pad4(headBytes + hashBytes);
    const prefix = Buffer.alloc(PREFIX);
    prefix.writeUInt32LE(MAGIC, 0);
    prefix.writeUInt32LE(VERSION, 4);
    prefix.writeUInt32LE(headTotal, 8);
    prefix.writeUInt32LE(json.length, 12);
    return [
      prefix,
      json,
      Buffer.alloc(pad4(PREFIX + json.length)),
      ...columns,
      ...hashes,
      Buffer.alloc(pad4(headBytes + hashBytes)),
      ...dict,
      ...postings,
    ];
  }
}
