import type { PositionedFile } from '../../../platform/storage/positioned-file';
import type { TermPostings } from './segment';

/** The varint and byte readers and writers of the segment file (segment-format.ts). */

/** A term's encoded postings as arrays (a query's few terms; a merge reads them with decodeEach). */
export function decodePostings(bytes: Buffer, df: number): TermPostings {
  const slots = new Uint32Array(df);
  const tf2 = new Uint16Array(df);
  let at = 0;
  decodeEach(bytes, df, (slot, tf) => {
    slots[at] = slot;
    tf2[at] = tf;
    at += 1;
  });
  return { count: df, slots, tf2 };
}

/** Calls `each` with every posting of an encoded list (slot, tf × 2), slots ascending. */
export function decodeEach(bytes: Buffer, df: number, each: (slot: number, tf2: number) => void): void {
  const cursor = new Cursor(bytes);
  let slot = 0;
  for (let at = 0; at < df; at += 1) {
    slot += cursor.varint();
    each(slot, cursor.varint());
  }
}

/** Reads the varint at `reader.at` in `buffer` (7 bits a byte, low first) and moves past it. */
function readVarint(buffer: Buffer, reader: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = buffer[reader.at++] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
}

/** Reads varints and UTF-8 from a buffer. */
export class Cursor {
  at = 0;
  constructor(private readonly buffer: Buffer) {}

  get done(): boolean {
    return this.at >= this.buffer.length;
  }

  varint(): number {
    return readVarint(this.buffer, this);
  }

  text(length: number): string {
    const text = this.buffer.toString('utf8', this.at, this.at + length);
    this.at += length;
    return text;
  }
}

/**
 * Reads a region of a segment file front to back in big positioned reads, into one buffer it
 * reuses: a merge reads its inputs whole (tens of megabytes), and a new buffer per read was garbage
 * V8 collected only after the merge, on top of its output (issue 32 item 7: the peak).
 * What `bytes` answers is a view of that buffer: valid until the next read from this reader.
 */
export class Sequential {
  private buffer = Buffer.alloc(0);
  /** Bytes of `buffer` holding data (from 0); `at` is where the next read starts. */
  private filled = 0;
  at = 0;
  private next: number;

  constructor(
    private readonly file: PositionedFile,
    start: number,
    private readonly end: number,
  ) {
    this.next = start;
  }

  private ensure(n: number): void {
    const rest = this.filled - this.at;
    if (rest >= n) return;
    const take = Math.min(this.end - this.next, Math.max(n - rest, 1 << 20));
    if (this.buffer.length < rest + take) {
      const grown = Buffer.allocUnsafe(rest + take);
      this.buffer.copy(grown, 0, this.at, this.filled);
      this.buffer = grown;
    } else {
      this.buffer.copyWithin(0, this.at, this.filled);
    }
    this.file.readInto(this.buffer, rest, this.next, take);
    this.next += take;
    this.filled = rest + take;
    this.at = 0;
  }

  varint(): number {
    this.ensure(Math.min(10, this.filled - this.at + this.end - this.next));
    return readVarint(this.buffer, this);
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

/** Bytes are appended in blocks of this size (a segment's postings are tens of megabytes). */
const BLOCK_BYTES = 1 << 20;
const FIRST_BLOCK_BYTES = 1 << 16;

/**
 * A growable byte buffer with varints, kept in blocks: growing never copies what was written, and
 * a doubled buffer's unused half (plus the old copy until V8 collects it) is never held. The
 * result is its blocks, written to the file one after another.
 */
export class Bytes {
  private readonly sealed: Buffer[] = [];
  private sealedBytes = 0;
  private block = Buffer.allocUnsafe(0);
  private used = 0;

  /** Bytes written so far (the offset of the next one). */
  get length(): number {
    return this.sealedBytes + this.used;
  }

  private ensure(n: number): void {
    if (this.used + n <= this.block.length) return;
    if (this.used > 0) {
      this.sealed.push(this.block.subarray(0, this.used));
      this.sealedBytes += this.used;
      this.used = 0;
    }
    // Small at first (most segments a save writes are a few files), growing with what it holds up to whole blocks.
    this.block = Buffer.allocUnsafe(Math.max(n, Math.min(BLOCK_BYTES, Math.max(FIRST_BLOCK_BYTES, this.length))));
  }

  varint(value: number): void {
    this.ensure(10);
    let rest = value;
    while (rest >= 0x80) {
      this.block[this.used++] = (rest % 128) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.block[this.used++] = rest;
  }

  bytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.block.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** What was written, as blocks in order. */
  result(): Buffer[] {
    return this.used > 0 ? [...this.sealed, this.block.subarray(0, this.used)] : [...this.sealed];
  }
}
