import { NgramIndex } from './ngram-index';
import type { IndexParts } from './ngram-index';
import type { EncodedTable, PostingSource, Postings } from './ngram-segment';
import type { SavedPaths } from './path-table';

/**
 * The trigram index's file in the data folder (issue 32 item 2: opening it costs one read and a
 * few copies, no per-file work). Little-endian, in this order:
 *
 *     magic "FNGR", version u32, header length u32, files n u32, path slots s u32, path bytes u32
 *     header: JSON { identity, textBytes, segments: [{ base, count, keys, keyBytes, lengthBytes, postingBytes }] }
 *     path offsets u32 × (n + 1), path hashes u32 × n, path slots u32 × s (path-table.ts)
 *     sizes f64 × n, ctimes f64 × n, flags u8 × n, paths (UTF-8)
 *     per segment: key varints, list-length varints
 *     per segment: postings
 *
 * Everything before the postings (5 MB for 62k files; the postings 57 MB) is read at open; the
 * postings when a query needs a list, and all of them once in the background (ngram-service.ts).
 * Another magic or version (the first format began with the header's length) is refused, never
 * read as this one: the caller builds the index again.
 */
const MAGIC = 0x52474e46; // "FNGR"
/** 1: JSON paths (no magic); 2: key tables between the postings (a branch, never released). */
export const NGRAM_FILE_VERSION = 3;
const FIXED = 24;

/** Why a saved index was not opened: the caller builds it again. */
export type NgramFileError =
  | { readonly code: 'ngram_other_format'; readonly message: string }
  | { readonly code: 'ngram_truncated'; readonly message: string }
  | { readonly code: 'ngram_damaged'; readonly message: string };

export type OpenedIndex =
  | { readonly ok: true; readonly index: NgramIndex; readonly identity: unknown }
  | { readonly ok: false; readonly error: NgramFileError };

interface Header {
  readonly identity: unknown;
  readonly textBytes: number;
  readonly segments: readonly {
    readonly base: number;
    readonly count: number;
    readonly keys: number;
    readonly keyBytes: number;
    readonly lengthBytes: number;
    readonly postingBytes: number;
  }[];
}

const bytesOf = (array: Uint32Array | Float64Array | Uint8Array) =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength);
/** A copy: the file table and path table change as files are indexed, and a save writes over awaits. */
const copyOf = (array: Uint32Array | Float64Array | Uint8Array) => Buffer.from(bytesOf(array));

/**
 * The whole index as the data folder's file, in parts written one after another (its postings in
 * memory: NgramIndex.loadPostings). Not joined: that would hold the postings twice at every save.
 */
export function saveIndex(index: NgramIndex, identity: unknown): Uint8Array[] {
  const parts = index.parts();
  const { paths } = parts;
  const tables: Uint8Array[] = [];
  const blobs: Uint8Array[] = [];
  const header: Header = {
    identity,
    textBytes: parts.textBytes,
    segments: parts.segments.map(({ base, count, table, postings }) => {
      if (!(postings instanceof Uint8Array)) throw new Error('postings on disk: NgramIndex.loadPostings first');
      tables.push(table.keyBytes, table.lengthBytes);
      blobs.push(postings);
      return {
        base,
        count,
        keys: table.count,
        keyBytes: table.keyBytes.length,
        lengthBytes: table.lengthBytes.length,
        postingBytes: postings.length,
      };
    }),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const fixed = Buffer.alloc(FIXED);
  [MAGIC, NGRAM_FILE_VERSION, json.length, paths.count, paths.slots.length, paths.bytes.length].forEach((value, i) =>
    fixed.writeUInt32LE(value, i * 4),
  );
  return [
    fixed,
    json,
    copyOf(paths.offsets),
    copyOf(paths.hashes),
    copyOf(paths.slots),
    copyOf(parts.sizes),
    copyOf(parts.ctimes),
    copyOf(parts.flags),
    copyOf(paths.bytes),
    // Written once and never changed: a segment's key tables and postings.
    ...tables,
    ...blobs,
  ];
}

class Refused extends Error {
  constructor(readonly error: NgramFileError) {
    super(error.message);
  }
}

const refuse = (code: NgramFileError['code'], message: string): never => {
  throw new Refused({ code, message });
};

/** An index read back from `bytes`, the whole file (tests), or why not. */
export function openIndex(bytes: Buffer): OpenedIndex {
  return refusal(() => {
    const head = readHead(bytes, bytes.length);
    if (head.end + head.postingBytes !== bytes.length) {
      refuse(head.end + head.postingBytes > bytes.length ? 'ngram_truncated' : 'ngram_damaged', 'postings');
    }
    return opened(head, (offset, length) => bytes.subarray(offset, offset + length));
  });
}

/** The saved file opened for range reads (platform/storage/binary-file.ts). */
export interface SavedFile extends PostingSource {
  readonly size: number;
  close(): Promise<void>;
}

/**
 * An index read back from the saved file: everything before the postings now (two reads), the
 * postings left on disk (the index reads them, then closes `file`). Refused: `file` is closed.
 */
export async function openSavedIndex(file: SavedFile): Promise<OpenedIndex> {
  const result = await (async (): Promise<OpenedIndex> => {
    try {
      const fixed = Buffer.from(await file.read(0, Math.min(file.size, FIXED)));
      const sized = refusal(() => ({ ok: true, length: headLength(fixed, file.size) }) as const);
      if (!sized.ok) return sized;
      // The header says how long the key tables are.
      const start = Buffer.from(await file.read(0, Math.min(sized.length, file.size)));
      const tabled = refusal(() => ({ ok: true, length: sized.length + tablesLength(start, file.size) }) as const);
      if (!tabled.ok) return tabled;
      const end = Math.min(tabled.length, file.size);
      const bytes = Buffer.concat([
        start,
        end > start.length ? await file.read(start.length, end - start.length) : Buffer.alloc(0),
      ]);
      return refusal(() => {
        const head = readHead(bytes, file.size);
        if (head.end + head.postingBytes !== file.size) {
          refuse(head.end + head.postingBytes > file.size ? 'ngram_truncated' : 'ngram_damaged', 'postings');
        }
        return opened(head, (offset, length) => ({ source: file, offset, length }), file);
      });
    } catch (error) {
      return refusal(() => {
        throw error;
      });
    }
  })();
  if (!result.ok) await file.close().catch(() => undefined);
  return result;
}

/** What lies before the postings, checked. */
interface Head {
  readonly header: Header;
  readonly parts: Omit<IndexParts, 'segments' | 'textBytes'>;
  readonly tables: readonly EncodedTable[];
  /** Where the postings begin, and their length. */
  readonly end: number;
  readonly postingBytes: number;
}

/** The key tables' length, from the header (the start of the file up to the path table). */
function tablesLength(start: Buffer, size: number): number {
  const headerLength = start.readUInt32LE(8);
  if (start.length < FIXED + headerLength) refuse('ngram_truncated', `the file ends at byte ${size}`);
  const header = parseHeader(start.subarray(FIXED, FIXED + headerLength));
  return header.segments.reduce((sum, segment) => sum + segment.keyBytes + segment.lengthBytes, 0);
}

function parseHeader(bytes: Buffer): Header {
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8')) as Header;
  } catch {
    return refuse('ngram_damaged', 'the header is not JSON');
  }
  if (!Array.isArray(header.segments) || typeof header.textBytes !== 'number') {
    refuse('ngram_damaged', 'the header lacks its segments');
  }
  for (const segment of header.segments) {
    const sizes = [segment.keyBytes, segment.lengthBytes, segment.postingBytes, segment.keys];
    if (!sizes.every((size) => Number.isInteger(size) && size >= 0)) refuse('ngram_damaged', 'a segment');
  }
  return header;
}

/** The bytes up to the key tables: read from the fixed header, refused as truncated when cut. */
function headLength(fixed: Buffer, size: number): number {
  checkFixed(fixed, size);
  const { headerLength, n, slotCount, pathBytes } = fixedCounts(fixed);
  return FIXED + headerLength + (n + 1) * 4 + n * 4 + slotCount * 4 + n * 17 + pathBytes;
}

/** The four counts the fixed header holds after its magic and version: where each table ends. */
function fixedCounts(bytes: Buffer) {
  const [headerLength, n, slotCount, pathBytes] = [8, 12, 16, 20].map((at) => bytes.readUInt32LE(at)) as [
    number,
    number,
    number,
    number,
  ];
  return { headerLength, n, slotCount, pathBytes };
}

function checkFixed(bytes: Buffer, size: number): void {
  if (bytes.length < 8) refuse('ngram_truncated', `${size} bytes: shorter than the fixed header`);
  if (bytes.readUInt32LE(0) !== MAGIC) refuse('ngram_other_format', 'not a trigram index file of this format');
  const version = bytes.readUInt32LE(4);
  if (version !== NGRAM_FILE_VERSION) refuse('ngram_other_format', `format version ${version}`);
  if (bytes.length < FIXED) refuse('ngram_truncated', `${size} bytes: shorter than the fixed header`);
}

/**
 * Reads the part of the file before the postings from `bytes` (its start; `size`: the file's);
 * checks that every part fits and the path table adds up, reads no path and no posting list.
 */
function readHead(bytes: Buffer, size: number): Head {
  checkFixed(bytes, size);
  const { headerLength, n, slotCount, pathBytes } = fixedCounts(bytes);
  let at = FIXED;
  const take = (length: number): Buffer => {
    if (at + length > bytes.length) refuse('ngram_truncated', `the file ends at byte ${size}`);
    at += length;
    return bytes.subarray(at - length, at);
  };
  /** A copy (typed arrays need aligned memory; these are small). */
  const copy = (length: number): ArrayBuffer => {
    const part = new Uint8Array(length);
    part.set(take(length));
    return part.buffer;
  };
  const header = parseHeader(take(headerLength));
  const offsets = new Uint32Array(copy((n + 1) * 4));
  const hashes = new Uint32Array(copy(n * 4));
  const slots = new Uint32Array(copy(slotCount * 4));
  const sizes = new Float64Array(copy(n * 8));
  const ctimes = new Float64Array(copy(n * 8));
  const flags = new Uint8Array(copy(n));
  const paths: SavedPaths = { count: n, offsets, bytes: Buffer.from(copy(pathBytes)), hashes, slots };
  checkPaths(paths);
  let postingBytes = 0;
  const tables = header.segments.map((segment): EncodedTable => {
    if (!(segment.base >= 0 && segment.count >= 0 && segment.base + segment.count <= n)) {
      refuse('ngram_damaged', 'a segment numbers files the table does not have');
    }
    postingBytes += segment.postingBytes;
    // Copies: the head's bytes are let go.
    return {
      count: segment.keys,
      keyBytes: new Uint8Array(copy(segment.keyBytes)),
      lengthBytes: new Uint8Array(copy(segment.lengthBytes)),
    };
  });
  return { header, parts: { paths, sizes, ctimes, flags }, tables, end: at, postingBytes };
}

/** The index of a checked head, its postings from `postings` (offsets in the file). */
function opened(head: Head, postings: (offset: number, length: number) => Postings, file?: SavedFile): OpenedIndex {
  let at = head.end;
  const segments = head.header.segments.map((segment, i) => {
    at += segment.postingBytes;
    return {
      base: segment.base,
      count: segment.count,
      table: head.tables[i]!,
      postings: postings(at - segment.postingBytes, segment.postingBytes),
    };
  });
  const parts: IndexParts = {
    ...head.parts,
    textBytes: head.header.textBytes,
    segments,
    ...(file === undefined ? {} : { file }),
  };
  return { ok: true, index: NgramIndex.fromParts(parts), identity: head.header.identity };
}

/** `open`'s answer, or its refusal as a typed error (never a throw). */
function refusal<T extends { ok: boolean }>(open: () => T): T | { ok: false; error: NgramFileError } {
  try {
    return open();
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: error.error };
    return { ok: false, error: { code: 'ngram_damaged', message: (error as Error).message } };
  }
}

/** Offsets ascend within the path bytes; slots are a power of two of numbers in range. */
function checkPaths({ count, offsets, bytes, slots }: SavedPaths): void {
  if (offsets[0] !== 0 || offsets[count] !== bytes.length) refuse('ngram_damaged', 'path offsets do not add up');
  for (let id = 0; id < count; id += 1) {
    if (offsets[id + 1]! < offsets[id]!) refuse('ngram_damaged', 'path offsets do not ascend');
  }
  if (slots.length === 0 || (slots.length & (slots.length - 1)) !== 0) refuse('ngram_damaged', 'path slots');
  let empty = false;
  for (let slot = 0; slot < slots.length; slot += 1) {
    if (slots[slot]! > count) refuse('ngram_damaged', 'a path slot names no file');
    if (slots[slot] === 0) empty = true;
  }
  // A lookup stops at an empty slot: a full table would make a miss go round for ever.
  if (!empty) refuse('ngram_damaged', 'no empty path slot');
}
