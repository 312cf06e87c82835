import { NgramIndex } from './ngram-index';
import type { IndexParts } from './ngram-index';
import type { SavedPaths } from './path-table';

/**
 * The trigram index's file in the data folder (issue 32 item 2: opening it costs one read and a
 * few copies, no per-file work). Little-endian, in this order:
 *
 *     magic "FNGR", version u32, header length u32, files n u32, path slots s u32, path bytes u32
 *     header: JSON { identity, textBytes, segments: [{ base, count, keys, keyBytes, lengthBytes, postingBytes }] }
 *     path offsets u32 × (n + 1), path hashes u32 × n, path slots u32 × s (path-table.ts)
 *     sizes f64 × n, ctimes f64 × n, flags u8 × n, paths (UTF-8)
 *     per segment: key varints, list-length varints, postings
 *
 * Another magic or version (the first format began with the header's length) is refused, never
 * read as this one: the caller builds the index again.
 */
const MAGIC = 0x52474e46; // "FNGR"
export const NGRAM_FILE_VERSION = 2;
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

/** The whole index as bytes for the data folder. */
export function saveIndex(index: NgramIndex, identity: unknown): Buffer {
  const parts = index.parts();
  const { paths } = parts;
  const blobs: Uint8Array[] = [];
  const header: Header = {
    identity,
    textBytes: parts.textBytes,
    segments: parts.segments.map(({ base, count, table, postings }) => {
      blobs.push(table.keyBytes, table.lengthBytes, postings);
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
  return Buffer.concat([
    fixed,
    json,
    bytesOf(paths.offsets),
    bytesOf(paths.hashes),
    bytesOf(paths.slots),
    bytesOf(parts.sizes),
    bytesOf(parts.ctimes),
    bytesOf(parts.flags),
    paths.bytes,
    ...blobs,
  ]);
}

class Refused extends Error {
  constructor(readonly error: NgramFileError) {
    super(error.message);
  }
}

const refuse = (code: NgramFileError['code'], message: string): never => {
  throw new Refused({ code, message } as NgramFileError);
};

/**
 * An index read back from `bytes` (which it keeps: postings and paths stay views of them), or why
 * not. Checks that every part fits and the path table adds up; reads no path and no posting list.
 */
export function openIndex(bytes: Buffer): OpenedIndex {
  try {
    if (bytes.length < 8) refuse('ngram_truncated', `${bytes.length} bytes: shorter than the fixed header`);
    if (bytes.readUInt32LE(0) !== MAGIC) refuse('ngram_other_format', 'not a trigram index file of this format');
    const version = bytes.readUInt32LE(4);
    if (version !== NGRAM_FILE_VERSION) refuse('ngram_other_format', `format version ${version}`);
    if (bytes.length < FIXED) refuse('ngram_truncated', `${bytes.length} bytes: shorter than the fixed header`);
    const [headerLength, n, slotCount, pathBytes] = [8, 12, 16, 20].map((at) => bytes.readUInt32LE(at)) as [
      number,
      number,
      number,
      number,
    ];
    let at = FIXED;
    const take = (length: number): Buffer => {
      if (at + length > bytes.length) refuse('ngram_truncated', `the file ends at byte ${bytes.length}`);
      at += length;
      return bytes.subarray(at - length, at);
    };
    /** A copy (typed arrays need aligned memory; these are small). */
    const copy = (length: number): ArrayBuffer => {
      const part = new Uint8Array(length);
      part.set(take(length));
      return part.buffer;
    };
    let header: Header;
    try {
      header = JSON.parse(take(headerLength).toString('utf8')) as Header;
    } catch (error) {
      if (error instanceof Refused) throw error;
      return refuse('ngram_damaged', 'the header is not JSON');
    }
    const offsets = new Uint32Array(copy((n + 1) * 4));
    const hashes = new Uint32Array(copy(n * 4));
    const slots = new Uint32Array(copy(slotCount * 4));
    const sizes = new Float64Array(copy(n * 8));
    const ctimes = new Float64Array(copy(n * 8));
    const flags = new Uint8Array(copy(n));
    const paths: SavedPaths = { count: n, offsets, bytes: take(pathBytes), hashes, slots };
    checkPaths(paths);
    if (!Array.isArray(header.segments) || typeof header.textBytes !== 'number') {
      refuse('ngram_damaged', 'the header lacks its segments');
    }
    const segments = header.segments.map((segment) => {
      if (!(segment.base >= 0 && segment.count >= 0 && segment.base + segment.count <= n)) {
        refuse('ngram_damaged', 'a segment numbers files the table does not have');
      }
      const keyBytes = take(segment.keyBytes);
      const lengthBytes = take(segment.lengthBytes);
      const postings = take(segment.postingBytes);
      return {
        base: segment.base,
        count: segment.count,
        table: { count: segment.keys, keyBytes, lengthBytes },
        postings,
      };
    });
    if (at !== bytes.length) refuse('ngram_damaged', `${bytes.length - at} bytes after the last segment`);
    const parts: IndexParts = { paths, sizes, ctimes, flags, textBytes: header.textBytes, segments };
    return { ok: true, index: NgramIndex.fromParts(parts), identity: header.identity };
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
