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
/**
 * 1: JSON paths (no magic); 2: key tables between the postings (a branch, never released); 3: files
 * in UTF-8 with a byte-order mark flagged as any other indexed file (4 tells them apart, NGRAM_BOM).
 */
export const NGRAM_FILE_VERSION = 4;
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
    const plan = headPlan(bytes.subarray(0, FIXED), (length) => bytes.subarray(FIXED, FIXED + length), bytes.length);
    // headPlan refused any part past the end.
    for (const [offset, into] of plan.fills) into.set(bytes.subarray(offset, offset + into.length));
    const head = checkedHead(plan, bytes.length);
    return opened(head, (offset, length) => bytes.subarray(offset, offset + length));
  });
}

/** The saved file opened for range reads (platform/storage/binary-file.ts). */
export interface SavedFile extends PostingSource {
  readonly size: number;
  /** Fills `into` with the file's bytes from `offset`; rejects when the file holds fewer there. */
  readInto(offset: number, into: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/**
 * An index read back from the saved file: everything before the postings now, each part read
 * straight into the array it stays in; the postings left on disk (the index reads them, then
 * closes `file`). Refused: `file` is closed.
 *
 * One read per part, no copies: memory a process touches for the first time costs far more than
 * the read itself on some machines. On a 2-core virtual machine where it cost ~4 ms a megabyte,
 * reading the 5 MB head, copying it whole, joining it to the key tables and copying each part out
 * took the open of a 62k-file index to 95-118 ms (the same code: ~19 ms on another machine).
 */
export async function openSavedIndex(file: SavedFile): Promise<OpenedIndex> {
  const result = await (async (): Promise<OpenedIndex> => {
    try {
      const fixed = Buffer.from(await file.read(0, Math.min(file.size, FIXED)));
      const sized = refusal(() => ({ ok: true, length: FIXED + headerLengthOf(fixed, file.size) }) as const);
      if (!sized.ok) return sized;
      if (sized.length > file.size) {
        return { ok: false, error: { code: 'ngram_truncated', message: `the file ends at byte ${file.size}` } };
      }
      const headerBytes = Buffer.from(await file.read(FIXED, Math.min(sized.length, file.size) - FIXED));
      const planned = refusal(() => ({ ok: true, plan: headPlan(fixed, () => headerBytes, file.size) }) as const);
      if (!planned.ok) return planned;
      for (const [offset, into] of planned.plan.fills) await file.readInto(offset, into);
      const { plan } = planned;
      return refusal(() =>
        opened(checkedHead(plan, file.size), (offset, length) => ({ source: file, offset, length }), file),
      );
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

/** The head's parts, made to their sizes and still to be filled: `fills` says from where in the file. */
interface HeadPlan extends Head {
  readonly fills: readonly (readonly [offset: number, into: Uint8Array])[];
}

/** The JSON header's length, from the fixed header (checked: magic, version, its own length). */
function headerLengthOf(fixed: Buffer, size: number): number {
  checkFixed(fixed, size);
  return fixed.readUInt32LE(8);
}

/**
 * Where each part before the postings lies, from the fixed header (`fixed`) and the JSON header
 * (`headerBytes(length)`: its bytes), and the arrays they go into. Refused as truncated when the
 * header is cut; the parts themselves are checked once filled (checkedHead).
 */
function headPlan(fixed: Buffer, headerBytes: (length: number) => Buffer, size: number): HeadPlan {
  const headerLength = headerLengthOf(fixed, size);
  const { n, slotCount, pathBytes } = fixedCounts(fixed);
  const json = headerBytes(headerLength);
  if (json.length < headerLength) refuse('ngram_truncated', `the file ends at byte ${size}`);
  const header = parseHeader(json);
  const fills: [number, Uint8Array][] = [];
  let at = FIXED + headerLength;
  /**
   * The next part of the file, `length` bytes, as the bytes of a new array of `make`'s kind. A part
   * that would end past the file is refused before it is made: a header that claims more than the
   * file holds allocates no more than the file's size in all.
   */
  const part = <T extends Uint32Array | Float64Array | Uint8Array>(
    length: number,
    make: (buffer: ArrayBuffer) => T,
  ): T => {
    if (at + length > size) refuse('ngram_truncated', `the file ends at byte ${size}`);
    const array = make(new ArrayBuffer(length));
    fills.push([at, new Uint8Array(array.buffer)]);
    at += length;
    return array;
  };
  const offsets = part((n + 1) * 4, (buffer) => new Uint32Array(buffer));
  const hashes = part(n * 4, (buffer) => new Uint32Array(buffer));
  const slots = part(slotCount * 4, (buffer) => new Uint32Array(buffer));
  const sizes = part(n * 8, (buffer) => new Float64Array(buffer));
  const ctimes = part(n * 8, (buffer) => new Float64Array(buffer));
  const flags = part(n, (buffer) => new Uint8Array(buffer));
  const bytes = Buffer.from(part(pathBytes, (buffer) => new Uint8Array(buffer)).buffer);
  let postingBytes = 0;
  const tables = header.segments.map((segment): EncodedTable => {
    if (!(segment.base >= 0 && segment.count >= 0 && segment.base + segment.count <= n)) {
      refuse('ngram_damaged', 'a segment numbers files the table does not have');
    }
    postingBytes += segment.postingBytes;
    return {
      count: segment.keys,
      keyBytes: part(segment.keyBytes, (buffer) => new Uint8Array(buffer)),
      lengthBytes: part(segment.lengthBytes, (buffer) => new Uint8Array(buffer)),
    };
  });
  const paths: SavedPaths = { count: n, offsets, bytes, hashes, slots };
  return { header, parts: { paths, sizes, ctimes, flags }, tables, end: at, postingBytes, fills };
}

/** A filled plan checked: the path table adds up and the postings end the file (`size`). */
function checkedHead(plan: HeadPlan, size: number): Head {
  checkPaths(plan.parts.paths);
  if (plan.end + plan.postingBytes !== size) {
    refuse(plan.end + plan.postingBytes > size ? 'ngram_truncated' : 'ngram_damaged', 'postings');
  }
  return plan;
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

/** The counts the fixed header holds after its magic, version and header length: where each table ends. */
function fixedCounts(bytes: Buffer) {
  const [n, slotCount, pathBytes] = [12, 16, 20].map((at) => bytes.readUInt32LE(at)) as [number, number, number];
  return { n, slotCount, pathBytes };
}

function checkFixed(bytes: Buffer, size: number): void {
  if (bytes.length < 8) refuse('ngram_truncated', `${size} bytes: shorter than the fixed header`);
  if (bytes.readUInt32LE(0) !== MAGIC) refuse('ngram_other_format', 'not a trigram index file of this format');
  const version = bytes.readUInt32LE(4);
  if (version !== NGRAM_FILE_VERSION) refuse('ngram_other_format', `format version ${version}`);
  if (bytes.length < FIXED) refuse('ngram_truncated', `${size} bytes: shorter than the fixed header`);
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
