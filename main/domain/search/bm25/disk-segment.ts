import type { PositionedFile } from '../../../platform/storage/positioned-file';
import { ColumnSegment } from './segment';
import type { TermPostings } from './segment';
import { Cursor, Sequential, decodePostings } from './segment-bytes';
import { HASH_BYTES, MAGIC, PREFIX, VERSION, pad4 } from './segment-format';
import type { Header } from './segment-format';

/** An immutable segment file (segment-format.ts), open for positioned reads; in memory only its head. */
export class DiskSegment extends ColumnSegment {
  private readonly header: Header;
  private readonly dictStart: number;
  private readonly postingsStart: number;
  protected readonly paths: readonly string[];
  protected readonly versions: readonly string[];
  protected readonly chunkFiles: Uint32Array;
  protected readonly starts: Uint32Array;
  protected readonly ends: Uint32Array;
  protected readonly lengths: Uint32Array;
  private readonly headingRefs: Int32Array;
  protected readonly firsts: Uint32Array;
  protected readonly counts: Uint32Array;
  private readonly hashes: Buffer;
  private readonly deletedFiles: Uint8Array;
  private readonly deletedChunks: Uint8Array;

  /** Reads a segment file's head; throws when it is not one (a cache: the caller rebuilds). */
  constructor(
    readonly name: string,
    private readonly file: PositionedFile,
  ) {
    super();
    const prefix = file.read(0, PREFIX);
    if (prefix.readUInt32LE(0) !== MAGIC || prefix.readUInt32LE(4) !== VERSION) throw new Error('not a segment');
    const headBytes = prefix.readUInt32LE(8);
    const jsonBytes = prefix.readUInt32LE(12);
    const head = file.read(0, headBytes);
    this.header = JSON.parse(head.toString('utf8', PREFIX, PREFIX + jsonBytes)) as Header;
    this.paths = this.header.paths;
    this.versions = this.header.versions;
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

  fileDeleted(file: number) {
    return this.deletedFiles[file] === 1;
  }
  chunkDead(slot: number) {
    return this.deletedChunks[slot] === 1;
  }
  heading(slot: number) {
    const ref = this.headingRefs[slot] as number;
    return ref < 0 ? '' : (this.header.headings[ref] as string);
  }
  hash(slot: number) {
    return this.hashes.toString('base64url', slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
  }
  hashBytes(slot: number) {
    return this.hashes.subarray(slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
  }

  protected markFileDeleted(file: number): boolean {
    if (file < 0 || file >= this.fileCount || this.deletedFiles[file] === 1) return false;
    this.deletedFiles[file] = 1;
    return true;
  }

  protected markChunkDeleted(slot: number): void {
    this.deletedChunks[slot] = 1;
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

  /**
   * Every term with its encoded postings (decodeEach reads them), in dictionary order, read
   * sequentially (a merge). `bytes` is valid until the next term is asked for: a merge of hundreds
   * of thousands of terms decodes each into its own arrays, not into two new typed arrays a term.
   */
  *allTerms(): Generator<{ term: string; df: number; bytes: Buffer }> {
    const dict = new Sequential(this.file, this.dictStart, this.postingsStart);
    const postings = new Sequential(this.file, this.postingsStart, this.file.size);
    for (let n = 0; n < this.header.terms; n += 1) {
      const term = dict.text(dict.varint());
      const df = dict.varint();
      const bytes = dict.varint();
      yield { term, df, bytes: postings.bytes(bytes) };
    }
  }

  close(): void {
    this.file.close();
  }
}
