import { NGRAM_ALWAYS, NGRAM_BINARY, NGRAM_RACY } from '../../../platform/search-engines/ngram-types';
import type { NgramSegment } from '../../../platform/search-engines/ngram-types';
import type { TrigramPlan } from './trigram-plan';

/** A segment's key table: sorted trigram keys and the end of each key's list in the postings. */
interface KeyTable {
  readonly keys: Uint32Array;
  readonly ends: Uint32Array;
}

/** A saved segment's key table as it lies in the file: varint deltas, decoded on first use. */
interface EncodedTable {
  readonly count: number;
  readonly keyBytes: Uint8Array;
  readonly lengthBytes: Uint8Array;
}

/**
 * A segment as the index holds it: the worker's answer, its files numbered from `base`. One read
 * back from disk keeps its key table encoded and its postings a view of the file's bytes until a
 * query first needs them (issue 32 item 2: opening the index reads headers only).
 */
class Segment {
  #table: KeyTable | undefined;
  #encoded: EncodedTable | undefined;
  #broken = false;

  constructor(
    readonly base: number,
    readonly count: number,
    table: KeyTable | EncodedTable,
    readonly postings: Uint8Array,
  ) {
    if ('keys' in table) this.#table = table;
    else this.#encoded = table;
  }

  /** The key table has been decoded (tests: a load decodes none). */
  get decoded(): boolean {
    return this.#table !== undefined;
  }

  /**
   * The key table; undefined when the saved bytes do not add up (the segment then answers "every
   * file may match": a damaged cache costs speed, never a missed match).
   */
  table(): KeyTable | undefined {
    if (this.#table !== undefined || this.#encoded === undefined || this.#broken) return this.#table;
    const { count, keyBytes, lengthBytes } = this.#encoded;
    const keys = decodeDeltas(keyBytes, count);
    const ends = decodeDeltas(lengthBytes, count);
    if (count > 0 && ends[count - 1] !== this.postings.length) {
      this.#broken = true; // kept encoded: saved again as it is, and still answers "may match"
      return undefined;
    }
    this.#encoded = undefined;
    this.#table = { keys, ends };
    return this.#table;
  }

  /** The key table as saved: encoded again only when it was decoded. */
  encoded(): { count: number; keyBytes: Uint8Array; lengthBytes: Uint8Array } {
    if (this.#encoded !== undefined) return this.#encoded;
    const table = this.#table ?? { keys: new Uint32Array(0), ends: new Uint32Array(0) };
    // ends ascend: their deltas are the list lengths
    return { count: table.keys.length, keyBytes: encodeDeltas(table.keys), lengthBytes: encodeDeltas(table.ends) };
  }

  get memoryBytes(): number {
    const table = this.#table;
    const encoded = this.#encoded;
    const tableBytes =
      table !== undefined
        ? table.keys.byteLength + table.ends.byteLength
        : encoded === undefined
          ? 0
          : encoded.keyBytes.byteLength + encoded.lengthBytes.byteLength;
    return tableBytes + this.postings.byteLength;
  }
}

/** What a query does with a file its walk found. */
export const FileVerdict = {
  /** Indexed, unchanged, and lacks a trigram the query needs: cannot match. */
  Skip: 0,
  /** Indexed, unchanged and binary: the scan would skip it too (and count it). */
  Binary: 1,
  /** A candidate: search it. */
  Search: 2,
  /** Not in the index, or changed since it was indexed: search it, and index it again. */
  Stale: 3,
} as const;
export type FileVerdict = (typeof FileVerdict)[keyof typeof FileVerdict];

const DEAD = 255;

/** A query's verdict on each file its walk finds; `share`: candidates among the indexed files (0..1). */
export type FileSelector = ((path: string, size: number, ctimeMs: number) => FileVerdict) & {
  readonly share: number;
  /**
   * The verdict on a file the change watcher vouches for (unchanged since it was indexed), without
   * its facts. Stale: not indexed, or indexed too soon after a write (racy): look at it.
   */
  readonly known: (path: string) => FileVerdict;
};

/**
 * The trigram index of a workspace's text files (issue 16 item 4): per file its workspace path,
 * size and ctime when indexed, and a state; per segment of files (one worker job) the sorted
 * trigram keys with varint delta-encoded posting lists. A file indexed again lands in a new segment
 * and its old number dies. Queries check every walked file's size and ctime against the table, so a
 * change nobody reported yet still makes the file a candidate: answers stay exact.
 */
export class NgramIndex {
  private readonly paths: string[] = [];
  private sizes = new Float64Array(1024);
  private ctimes = new Float64Array(1024);
  private flags = new Uint8Array(1024);
  private readonly byPath = new Map<string, number>();
  private readonly segments: Segment[] = [];
  private deadFiles = 0;
  /** Text bytes read into live segments (approximately: a dead file's bytes stay counted). */
  textBytes = 0;

  get files(): number {
    return this.paths.length - this.deadFiles;
  }

  get deadShare(): number {
    return this.paths.length === 0 ? 0 : this.deadFiles / this.paths.length;
  }

  /** Bytes the posting lists and keys take in memory. */
  get memoryBytes(): number {
    let total = this.paths.length * 17;
    for (const segment of this.segments) total += segment.memoryBytes;
    return total;
  }

  /** Adds a worker's segment for `paths` (the job's files, in order); older entries of these paths die. */
  add(paths: readonly string[], segment: NgramSegment): void {
    const base = this.paths.length;
    this.grow(base + paths.length);
    paths.forEach((path, i) => {
      const previous = this.byPath.get(path);
      if (previous !== undefined && this.flags[previous] !== DEAD) {
        this.flags[previous] = DEAD;
        this.deadFiles += 1;
      }
      this.byPath.set(path, base + i);
      this.paths.push(path);
      this.sizes[base + i] = segment.sizes[i]!;
      this.ctimes[base + i] = segment.ctimes[i]!;
      this.flags[base + i] = segment.flags[i]!;
    });
    this.textBytes += segment.bytes;
    if (segment.keys.length > 0) {
      this.segments.push(new Segment(base, paths.length, { keys: segment.keys, ends: segment.ends }, segment.postings));
    }
  }

  /** Forgets files (deleted, or no longer in the walk): their numbers die. */
  remove(paths: Iterable<string>): void {
    for (const path of paths) {
      const id = this.byPath.get(path);
      if (id === undefined) continue;
      this.byPath.delete(path);
      if (this.flags[id] !== DEAD) {
        this.flags[id] = DEAD;
        this.deadFiles += 1;
      }
    }
  }

  /** Workspace paths of the live files (for a full walk to tell which vanished). */
  livePaths(): IterableIterator<string> {
    return this.byPath.keys();
  }

  /**
   * The files that may match `plan`: a selector telling, for each walked file, whether to search
   * it. Cheap: the plan's posting lists are decoded once, here.
   */
  selector(plan: TrigramPlan): FileSelector {
    const candidates = plan.op === 'all' ? undefined : this.candidates(plan);
    let share = 1;
    if (candidates !== undefined && this.files > 0) {
      let count = 0;
      for (let i = 0; i < candidates.length; i += 1) count += candidates[i]!;
      share = count / this.files;
    }
    const verdict = (path: string, size: number, ctimeMs: number): FileVerdict => {
      const id = this.byPath.get(path);
      if (id === undefined || this.sizes[id] !== size || this.ctimes[id] !== ctimeMs) return FileVerdict.Stale;
      return verdictOf(id);
    };
    const known = (path: string): FileVerdict => {
      const id = this.byPath.get(path);
      return id === undefined ? FileVerdict.Stale : verdictOf(id);
    };
    const verdictOf = (id: number): FileVerdict => {
      const flag = this.flags[id]!;
      if (flag === NGRAM_RACY || flag === DEAD) return FileVerdict.Stale;
      if (flag === NGRAM_BINARY) return FileVerdict.Binary;
      // A file indexed again after the plan was evaluated (a refresh during this query's walk) has
      // a number beyond the marks: searched.
      if (flag === NGRAM_ALWAYS || candidates === undefined || id >= candidates.length || candidates[id] === 1) {
        return FileVerdict.Search;
      }
      return FileVerdict.Skip;
    };
    return Object.assign(verdict, { share, known });
  }

  private candidates(plan: TrigramPlan): Uint8Array {
    const marks = new Uint8Array(this.paths.length);
    for (const segment of this.segments) {
      const local = evaluate(plan, segment);
      if (local === 'all') marks.fill(1, segment.base, segment.base + segment.count);
      else for (let i = 0; i < local.length; i += 1) marks[segment.base + local[i]!] = 1;
    }
    return marks;
  }

  private grow(length: number): void {
    if (length <= this.sizes.length) return;
    const capacity = Math.max(length, this.sizes.length * 2);
    const sizes = new Float64Array(capacity);
    sizes.set(this.sizes);
    this.sizes = sizes;
    const ctimes = new Float64Array(capacity);
    ctimes.set(this.ctimes);
    this.ctimes = ctimes;
    const flags = new Uint8Array(capacity);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** The whole index as bytes for the data folder: keys and list lengths varint-encoded too. */
  serialize(identity: unknown): Buffer {
    const blobs: Uint8Array[] = [];
    const segments = this.segments.map((segment) => {
      const { count, keyBytes, lengthBytes } = segment.encoded();
      blobs.push(keyBytes, lengthBytes, segment.postings);
      return {
        base: segment.base,
        count: segment.count,
        keys: count,
        keyBytes: keyBytes.length,
        lengthBytes: lengthBytes.length,
        postingBytes: segment.postings.length,
      };
    });
    const n = this.paths.length;
    const header = Buffer.from(
      JSON.stringify({ identity, paths: this.paths, textBytes: this.textBytes, segments }),
      'utf8',
    );
    const prefix = Buffer.alloc(8);
    prefix.writeUInt32LE(header.length, 0);
    prefix.writeUInt32LE(n, 4);
    const table = [
      Buffer.from(this.sizes.buffer, 0, n * 8),
      Buffer.from(this.ctimes.buffer, 0, n * 8),
      Buffer.from(this.flags.buffer, 0, n),
    ];
    return Buffer.concat([prefix, header, ...table, ...blobs]);
  }

  /** Segments whose key tables have been decoded (tests: opening a saved index decodes none). */
  get decodedSegments(): number {
    return this.segments.filter((segment) => segment.decoded).length;
  }

  /**
   * An index read back, or undefined when the bytes are not one (a cache: rebuilt then). Only the
   * file table is read now; each segment's keys are decoded when a query first needs them, and
   * its postings stay a view of `bytes` (which the index keeps).
   */
  static deserialize(bytes: Buffer): { index: NgramIndex; identity: unknown } | undefined {
    try {
      const headerLength = bytes.readUInt32LE(0);
      const n = bytes.readUInt32LE(4);
      let at = 8;
      const header = JSON.parse(bytes.toString('utf8', at, at + headerLength)) as {
        identity: unknown;
        paths: string[];
        textBytes: number;
        segments: {
          base: number;
          count: number;
          keys: number;
          keyBytes: number;
          lengthBytes: number;
          postingBytes: number;
        }[];
      };
      at += headerLength;
      if (header.paths.length !== n) return undefined;
      const index = new NgramIndex();
      index.grow(n);
      const copy = (length: number) => {
        if (at + length > bytes.length) throw new Error('truncated');
        const part = new Uint8Array(length);
        part.set(bytes.subarray(at, at + length));
        at += length;
        return part;
      };
      const view = (length: number) => {
        if (at + length > bytes.length) throw new Error('truncated');
        at += length;
        return bytes.subarray(at - length, at);
      };
      index.sizes.set(new Float64Array(copy(n * 8).buffer));
      index.ctimes.set(new Float64Array(copy(n * 8).buffer));
      index.flags.set(copy(n));
      header.paths.forEach((path, id) => {
        index.paths.push(path);
        if (index.flags[id] === DEAD) index.deadFiles += 1;
        else index.byPath.set(path, id);
      });
      index.textBytes = header.textBytes;
      for (const segment of header.segments) {
        const keyBytes = view(segment.keyBytes);
        const lengthBytes = view(segment.lengthBytes);
        const postings = view(segment.postingBytes);
        index.segments.push(
          new Segment(segment.base, segment.count, { count: segment.keys, keyBytes, lengthBytes }, postings),
        );
      }
      return at === bytes.length ? { index, identity: header.identity } : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Local file numbers of a segment that satisfy `plan`, ascending ('all': every one). */
function evaluate(plan: TrigramPlan, segment: Segment): Uint32Array | 'all' {
  switch (plan.op) {
    case 'all':
      return 'all';
    case 'tri': {
      const table = segment.table();
      return table === undefined ? 'all' : postingsOf(table, segment.postings, plan.key);
    }
    case 'and': {
      let result: Uint32Array | 'all' = 'all';
      for (const arg of plan.args) {
        const next = evaluate(arg, segment);
        if (next === 'all') continue;
        result = result === 'all' ? next : intersect(result, next);
        if (result.length === 0) break;
      }
      return result;
    }
    case 'or': {
      let result: Uint32Array = new Uint32Array(0);
      for (const arg of plan.args) {
        const next = evaluate(arg, segment);
        if (next === 'all') return 'all';
        result = union(result, next);
      }
      return result;
    }
  }
}

function postingsOf(table: KeyTable, postings: Uint8Array, key: number): Uint32Array {
  const { keys, ends } = table;
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = keys[mid]!;
    if (found < key) low = mid + 1;
    else if (found > key) high = mid - 1;
    else {
      const start = mid === 0 ? 0 : ends[mid - 1]!;
      return decodeList(postings, start, ends[mid]!);
    }
  }
  return new Uint32Array(0);
}

function decodeList(bytes: Uint8Array, start: number, end: number): Uint32Array {
  const out = new Uint32Array(end - start);
  let count = 0;
  let previous = -1;
  for (let at = start; at < end;) {
    let delta = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++]!;
      delta |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    previous += delta;
    out[count++] = previous;
  }
  return out.subarray(0, count);
}

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let count = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i += 1;
    else if (a[i]! > b[j]!) j += 1;
    else {
      out[count++] = a[i]!;
      i += 1;
      j += 1;
    }
  }
  return out.subarray(0, count);
}

function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out[count++] = a[i++]!;
    else if (i >= a.length || b[j]! < a[i]!) out[count++] = b[j++]!;
    else {
      out[count++] = a[i++]!;
      j += 1;
    }
  }
  return out.subarray(0, count);
}

/** Ascending numbers as LEB128 varints of their differences. */
function encodeDeltas(values: Uint32Array): Uint8Array {
  const out = new Uint8Array(values.length * 5);
  let length = 0;
  let previous = 0;
  for (let i = 0; i < values.length; i += 1) {
    let delta = values[i]! - previous;
    previous = values[i]!;
    while (delta >= 0x80) {
      out[length++] = (delta & 0x7f) | 0x80;
      delta = Math.floor(delta / 128);
    }
    out[length++] = delta;
  }
  return out.slice(0, length);
}

function decodeDeltas(bytes: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let at = 0;
  let previous = 0;
  for (let i = 0; i < count; i += 1) {
    let delta = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[at++]!;
      delta += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    previous += delta;
    out[i] = previous;
  }
  return out;
}
