import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { PositionedFile } from '../../platform/storage/positioned-file';

/**
 * The parts of the semantic index (issue 32 items 5 and 7: on disk in segments, small in memory). A
 * segment holds some files' chunks and the postings of their terms; Bm25Index (bm25-index.ts) keeps
 * one LiveSegment in memory for what changes and immutable DiskSegments for the rest, and scores over
 * all of them. A deleted or replaced file is masked in the segment that holds it.
 *
 * A segment file, little-endian:
 *
 *     magic "FSEG" u32, version u32, head bytes u32, header JSON bytes u32
 *     header JSON { files, chunks, terms, dictBytes, postingsBytes, paths, versions, headings,
 *                   sparseTerms, sparseDict, sparsePostings }          (then zero padding to 4)
 *     chunk columns: file u32 × c, startLine u32 × c, endLine u32 × c, length u32 × c,
 *                    heading i32 × c (-1: none), file's first chunk u32 × f, file's chunk count u32 × f,
 *                    sha1 of the chunk's text 20 bytes × c                   (then padding to 4)
 *     term dictionary (sorted by UTF-16 code units): per term varint UTF-8 length, the bytes,
 *                    varint df, varint postings bytes
 *     postings: per term, per chunk (ascending) varint slot delta, varint tf × 2
 *
 * Opening reads the head (header and columns: a few MB for 30,000 files); every SPARSE_EVERY-th term
 * of the dictionary is in the header with its offsets, so a lookup reads one dictionary block and one
 * postings list with positioned reads.
 */
const MAGIC = 0x47455346; // "FSEG"
const VERSION = 1;
const PREFIX = 16;
const SPARSE_EVERY = 64;
const HASH_BYTES = 20;
/** Writing or merging a big segment gives the event loop a turn this often (a query waits at most that). */
const WORK_SLICE_MS = 40;

/** Awaits a turn of the event loop once a slice of work has run (queries answer during a flush or merge). */
function slicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < WORK_SLICE_MS) return undefined;
    return yieldToLoop().then(() => {
      since = performance.now();
    });
  };
}

/** Postings pack a chunk slot and its weighted term frequency (halves: a heading word weighs 1.5). */
const TF_RANGE = 4096;

export const packPosting = (slot: number, tf: number): number =>
  slot * TF_RANGE + Math.min(TF_RANGE - 1, Math.round(tf * 2));

/** A term's postings in one segment (deleted chunks included: the caller skips them). */
export interface TermPostings {
  readonly count: number;
  readonly slots: ArrayLike<number>;
  /** Twice the weighted term frequency. */
  readonly tf2: ArrayLike<number>;
}

/** What Bm25Index reads from any segment, in memory or on disk. */
export interface Segment {
  /** Chunk slots, deleted ones included. */
  readonly slotCount: number;
  readonly fileCount: number;
  /** Chunks not deleted, and their total length in terms. */
  readonly liveChunks: number;
  readonly liveLength: number;
  readonly deadChunks: number;
  path(file: number): string;
  version(file: number): string;
  firstChunk(file: number): number;
  chunkCount(file: number): number;
  fileDeleted(file: number): boolean;
  deleteFile(file: number): void;
  chunkDead(slot: number): boolean;
  chunkFile(slot: number): number;
  startLine(slot: number): number;
  endLine(slot: number): number;
  chunkLength(slot: number): number;
  heading(slot: number): string;
  /** base64url of the chunk text's sha1: its vector's key. */
  hash(slot: number): string;
  postings(term: string): TermPostings | undefined;
}

/** A chunk as the index adds it. */
export interface NewChunk {
  readonly startLine: number;
  readonly endLine: number;
  readonly heading: string;
  readonly length: number;
  readonly hash: string;
  /** Term → weighted frequency. */
  readonly counts: ReadonlyMap<string, number>;
}

/** The segment for new and changed files: today's in-memory index (flat packed postings per term). */
export class LiveSegment implements Segment {
  private readonly paths: string[] = [];
  private readonly versions: string[] = [];
  private readonly firsts: number[] = [];
  private readonly counts: number[] = [];
  private readonly deleted: boolean[] = [];
  private readonly chunkFiles: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly lengths: number[] = [];
  private readonly headings: string[] = [];
  private readonly hashes: string[] = [];
  /** Term → packed postings (packPosting), slots ascending. */
  readonly terms = new Map<string, number[]>();
  postingCount = 0;
  liveChunks = 0;
  liveLength = 0;
  deadChunks = 0;

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
    for (const chunk of chunks) {
      const slot = this.chunkFiles.length;
      this.chunkFiles.push(file);
      this.starts.push(chunk.startLine);
      this.ends.push(chunk.endLine);
      this.lengths.push(chunk.length);
      this.headings.push(chunk.heading);
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

  path(file: number) {
    return this.paths[file] as string;
  }
  version(file: number) {
    return this.versions[file] as string;
  }
  firstChunk(file: number) {
    return this.firsts[file] as number;
  }
  chunkCount(file: number) {
    return this.counts[file] as number;
  }
  fileDeleted(file: number) {
    return this.deleted[file] === true;
  }
  chunkDead(slot: number) {
    return this.deleted[this.chunkFiles[slot] as number] === true;
  }
  chunkFile(slot: number) {
    return this.chunkFiles[slot] as number;
  }
  startLine(slot: number) {
    return this.starts[slot] as number;
  }
  endLine(slot: number) {
    return this.ends[slot] as number;
  }
  chunkLength(slot: number) {
    return this.lengths[slot] as number;
  }
  heading(slot: number) {
    return this.headings[slot] as string;
  }
  hash(slot: number) {
    return this.hashes[slot] as string;
  }

  deleteFile(file: number): void {
    if (this.deleted[file] !== false) return;
    this.deleted[file] = true;
    const first = this.firsts[file] as number;
    for (let slot = first; slot < first + (this.counts[file] as number); slot += 1) {
      this.liveChunks -= 1;
      this.liveLength -= this.lengths[slot] as number;
      this.deadChunks += 1;
    }
  }

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
  async encode(): Promise<{ bytes: Buffer; fileMap: Int32Array }> {
    const pause = slicer();
    const writer = new SegmentWriter();
    const fileMap = new Int32Array(this.fileCount).fill(-1);
    const slotMap = new Int32Array(this.slotCount).fill(-1);
    for (let file = 0; file < this.fileCount; file += 1) {
      if (this.deleted[file] === true) continue;
      const first = this.firsts[file] as number;
      const count = this.counts[file] as number;
      const base = writer.chunkCount;
      fileMap[file] = writer.addFile(this.paths[file] as string, this.versions[file] as string);
      for (let slot = first; slot < first + count; slot += 1) {
        slotMap[slot] = base + slot - first;
        writer.addChunk(
          writer.fileCount - 1,
          this.starts[slot] as number,
          this.ends[slot] as number,
          this.lengths[slot] as number,
          this.headings[slot] as string,
          Buffer.from(this.hashes[slot] as string, 'base64url'),
        );
      }
    }
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
    return { bytes: writer.finish(), fileMap };
  }
}

interface Header {
  readonly files: number;
  readonly chunks: number;
  readonly terms: number;
  readonly dictBytes: number;
  readonly postingsBytes: number;
  readonly paths: string[];
  readonly versions: string[];
  readonly headings: string[];
  readonly sparseTerms: string[];
  readonly sparseDict: number[];
  readonly sparsePostings: number[];
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** An immutable segment file, open for positioned reads; in memory only its head. */
export class DiskSegment implements Segment {
  private readonly header: Header;
  private readonly dictStart: number;
  private readonly postingsStart: number;
  private readonly chunkFiles: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;
  private readonly lengths: Uint32Array;
  private readonly headingRefs: Int32Array;
  private readonly firsts: Uint32Array;
  private readonly counts: Uint32Array;
  private readonly hashes: Buffer;
  private readonly deletedFiles: Uint8Array;
  private readonly deletedChunks: Uint8Array;
  liveChunks = 0;
  liveLength = 0;
  deadChunks = 0;

  /** Reads a segment file's head; throws when it is not one (a cache: the caller rebuilds). */
  constructor(
    readonly name: string,
    private readonly file: PositionedFile,
  ) {
    const prefix = file.read(0, PREFIX);
    if (prefix.readUInt32LE(0) !== MAGIC || prefix.readUInt32LE(4) !== VERSION) throw new Error('not a segment');
    const headBytes = prefix.readUInt32LE(8);
    const jsonBytes = prefix.readUInt32LE(12);
    const head = file.read(0, headBytes);
    this.header = JSON.parse(head.toString('utf8', PREFIX, PREFIX + jsonBytes)) as Header;
    const { chunks, files, dictBytes, postingsBytes } = this.header;
    if (file.size !== headBytes + dictBytes + postingsBytes) throw new Error('segment size mismatch');
    let at = PREFIX + jsonBytes + pad4(PREFIX + jsonBytes);
    const column = <T extends Uint32Array | Int32Array>(make: (n: number) => T, n: number): T => {
      const array = make(n);
      Buffer.from(array.buffer).set(head.subarray(at, at + n * 4));
      at += n * 4;
      return array;
    };
    this.chunkFiles = column((n) => new Uint32Array(n), chunks);
    this.starts = column((n) => new Uint32Array(n), chunks);
    this.ends = column((n) => new Uint32Array(n), chunks);
    this.lengths = column((n) => new Uint32Array(n), chunks);
    this.headingRefs = column((n) => new Int32Array(n), chunks);
    this.firsts = column((n) => new Uint32Array(n), files);
    this.counts = column((n) => new Uint32Array(n), files);
    this.hashes = Buffer.from(head.subarray(at, at + chunks * HASH_BYTES));
    this.dictStart = headBytes;
    this.postingsStart = headBytes + dictBytes;
    this.deletedFiles = new Uint8Array(files);
    this.deletedChunks = new Uint8Array(chunks);
    this.liveChunks = chunks;
    for (const length of this.lengths) this.liveLength += length;
  }

  get slotCount(): number {
    return this.header.chunks;
  }

  get fileCount(): number {
    return this.header.files;
  }

  /** The deleted files (the manifest keeps them). */
  deletedList(): number[] {
    const list: number[] = [];
    this.deletedFiles.forEach((deleted, file) => deleted === 1 && list.push(file));
    return list;
  }

  path(file: number) {
    return this.header.paths[file] as string;
  }
  version(file: number) {
    return this.header.versions[file] as string;
  }
  firstChunk(file: number) {
    return this.firsts[file] as number;
  }
  chunkCount(file: number) {
    return this.counts[file] as number;
  }
  fileDeleted(file: number) {
    return this.deletedFiles[file] === 1;
  }
  chunkDead(slot: number) {
    return this.deletedChunks[slot] === 1;
  }
  chunkFile(slot: number) {
    return this.chunkFiles[slot] as number;
  }
  startLine(slot: number) {
    return this.starts[slot] as number;
  }
  endLine(slot: number) {
    return this.ends[slot] as number;
  }
  chunkLength(slot: number) {
    return this.lengths[slot] as number;
  }
  heading(slot: number) {
    const ref = this.headingRefs[slot] as number;
    return ref < 0 ? '' : (this.header.headings[ref] as string);
  }
  hash(slot: number) {
    return this.hashes.toString('base64url', slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
  }

  deleteFile(file: number): void {
    if (file < 0 || file >= this.fileCount || this.deletedFiles[file] === 1) return;
    this.deletedFiles[file] = 1;
    const first = this.firsts[file] as number;
    for (let slot = first; slot < first + (this.counts[file] as number); slot += 1) {
      this.deletedChunks[slot] = 1;
      this.liveChunks -= 1;
      this.liveLength -= this.lengths[slot] as number;
      this.deadChunks += 1;
    }
  }

  postings(term: string): TermPostings | undefined {
    const { sparseTerms, sparseDict, sparsePostings } = this.header;
    // The last sparse entry at or before the term: its block is the only one that can hold it.
    let low = 0;
    let high = sparseTerms.length - 1;
    let block = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((sparseTerms[middle] as string) <= term) {
        block = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    if (block === -1) return undefined;
    const from = sparseDict[block] as number;
    const to = block + 1 < sparseDict.length ? (sparseDict[block + 1] as number) : this.header.dictBytes;
    const cursor = new Cursor(this.file.read(this.dictStart + from, to - from));
    let offset = sparsePostings[block] as number;
    while (!cursor.done) {
      const length = cursor.varint();
      const found = cursor.text(length);
      const df = cursor.varint();
      const bytes = cursor.varint();
      if (found === term) return decodePostings(this.file.read(this.postingsStart + offset, bytes), df);
      if (found > term) return undefined;
      offset += bytes;
    }
    return undefined;
  }

  /** Every term with its postings, in dictionary order, read sequentially (a merge). */
  *allTerms(): Generator<{ term: string; postings: TermPostings }> {
    const dict = new Sequential(this.file, this.dictStart, this.postingsStart);
    const postings = new Sequential(this.file, this.postingsStart, this.file.size);
    for (let n = 0; n < this.header.terms; n += 1) {
      const term = dict.text(dict.varint());
      const df = dict.varint();
      const bytes = dict.varint();
      yield { term, postings: decodePostings(postings.bytes(bytes), df) };
    }
  }

  close(): void {
    this.file.close();
  }
}

/**
 * Merges segments into one segment file (their live files, in order): a streaming merge by term
 * over their dictionaries, read sequentially. `fileMaps[s][file]` answers each file's number in the
 * result (-1: deleted, left out).
 */
export async function mergeSegments(
  inputs: readonly DiskSegment[],
): Promise<{ bytes: Buffer; fileMaps: Int32Array[] }> {
  const pause = slicer();
  const writer = new SegmentWriter();
  const fileMaps: Int32Array[] = [];
  const slotMaps: Int32Array[] = [];
  for (const input of inputs) {
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
          Buffer.from(input.hash(slot), 'base64url'),
        );
      }
    }
    fileMaps.push(fileMap);
    slotMaps.push(slotMap);
  }
  const streams = inputs.map((input) => input.allTerms());
  const heads = streams.map((stream) => stream.next());
  const slots: number[] = [];
  const tf2: number[] = [];
  for (;;) {
    let term: string | undefined;
    for (const head of heads)
      if (head.done !== true && (term === undefined || head.value.term < term)) term = head.value.term;
    if (term === undefined) break;
    slots.length = 0;
    tf2.length = 0;
    heads.forEach((head, s) => {
      if (head.done === true || head.value.term !== term) return;
      const map = slotMaps[s] as Int32Array;
      const { count, slots: from, tf2: tfs } = head.value.postings;
      for (let at = 0; at < count; at += 1) {
        const slot = map[from[at] as number] as number;
        if (slot === -1) continue;
        slots.push(slot);
        tf2.push(tfs[at] as number);
      }
      heads[s] = (streams[s] as Generator<{ term: string; postings: TermPostings }>).next();
    });
    if (slots.length > 0) writer.addTerm(term, slots, tf2);
    await pause();
  }
  return { bytes: writer.finish(), fileMaps };
}

function decodePostings(bytes: Buffer, df: number): TermPostings {
  const cursor = new Cursor(bytes);
  const slots = new Uint32Array(df);
  const tf2 = new Uint16Array(df);
  let slot = 0;
  for (let at = 0; at < df; at += 1) {
    slot += cursor.varint();
    slots[at] = slot;
    tf2[at] = cursor.varint();
  }
  return { count: df, slots, tf2 };
}

/** Reads varints and UTF-8 from a buffer. */
class Cursor {
  at = 0;
  constructor(private readonly buffer: Buffer) {}

  get done(): boolean {
    return this.at >= this.buffer.length;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.buffer[this.at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }

  text(length: number): string {
    const text = this.buffer.toString('utf8', this.at, this.at + length);
    this.at += length;
    return text;
  }
}

/** Reads a region of a segment file front to back in big positioned reads. */
class Sequential {
  private buffer = Buffer.alloc(0);
  private at = 0;
  private next: number;

  constructor(
    private readonly file: PositionedFile,
    start: number,
    private readonly end: number,
  ) {
    this.next = start;
  }

  private ensure(n: number): void {
    if (this.buffer.length - this.at >= n) return;
    const rest = this.buffer.subarray(this.at);
    const take = Math.min(this.end - this.next, Math.max(n - rest.length, 1 << 20));
    this.buffer = Buffer.concat([rest, this.file.read(this.next, take)]);
    this.next += take;
    this.at = 0;
  }

  varint(): number {
    this.ensure(Math.min(10, this.buffer.length - this.at + this.end - this.next));
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.buffer[this.at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }

  bytes(n: number): Buffer {
    this.ensure(n);
    const bytes = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return bytes;
  }

  text(n: number): string {
    return this.bytes(n).toString('utf8');
  }
}

/** A growable byte buffer with varints. */
class Bytes {
  buffer = Buffer.allocUnsafe(1 << 16);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  varint(value: number): void {
    this.ensure(10);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 128) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.buffer[this.length++] = rest;
  }

  bytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Builds a segment file: files, then their chunks, then terms in sorted order. */
class SegmentWriter {
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

  finish(): Buffer {
    const dict = this.dict.result();
    const postings = this.postingBytes.result();
    const header: Header = {
      files: this.paths.length,
      chunks: this.chunkFiles.length,
      terms: this.terms,
      dictBytes: dict.length,
      postingsBytes: postings.length,
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
    const headTotal = headBytes + hashes.length + pad4(headBytes + hashes.length);
    const prefix = Buffer.alloc(PREFIX);
    prefix.writeUInt32LE(MAGIC, 0);
    prefix.writeUInt32LE(VERSION, 4);
    prefix.writeUInt32LE(headTotal, 8);
    prefix.writeUInt32LE(json.length, 12);
    return Buffer.concat([
      prefix,
      json,
      Buffer.alloc(pad4(PREFIX + json.length)),
      ...columns,
      hashes,
      Buffer.alloc(pad4(headBytes + hashes.length)),
      dict,
      postings,
    ]);
  }
}
