import type { TrigramPlan } from './trigram-plan';

/** A segment's key table: sorted trigram keys and the end of each key's list in the postings. */
export interface KeyTable {
  readonly keys: Uint32Array;
  readonly ends: Uint32Array;
}

/** A saved segment's key table as it lies in the file: varint deltas, decoded on first use. */
export interface EncodedTable {
  readonly count: number;
  readonly keyBytes: Uint8Array;
  readonly lengthBytes: Uint8Array;
}

/** Where a saved segment's postings lie until they are read: a range of the index file. */
export interface PostingSource {
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A segment's postings: in memory, or a range of the saved file (read when a query needs them). */
export type Postings =
  Uint8Array | { readonly source: PostingSource; readonly offset: number; readonly length: number };

/**
 * Lists read from disk kept per segment (the most recently used): a query's plan names a few
 * trigrams, and the next query often repeats some; the page cache holds the rest.
 */
const KEPT_LISTS = 64;

/**
 * A segment as the index holds it: the worker's answer, its files numbered from `base`. One read
 * back from disk keeps its key table encoded until a query first needs it, and its postings on
 * disk: a query reads the lists its trigrams need (prepare) until the whole file has been read
 * (issue 32 item 2: opening the index reads its path table and key tables only).
 */
export class Segment {
  #table: KeyTable | undefined;
  #encoded: EncodedTable | undefined;
  #broken = false;
  #postings: Postings;
  /** Lists read from disk by key (bytes), until the postings are in memory. */
  #lists = new Map<number, Uint8Array>();

  constructor(
    readonly base: number,
    readonly count: number,
    table: KeyTable | EncodedTable,
    postings: Postings,
  ) {
    if ('keys' in table) this.#table = table;
    else this.#encoded = table;
    this.#postings = postings;
  }

  /** The key table has been decoded (tests: a load decodes none). */
  get decoded(): boolean {
    return this.#table !== undefined;
  }

  get postingBytes(): number {
    return this.#postings.length;
  }

  /** The postings' range in the saved file while they are not in memory. */
  get onDisk(): { readonly source: PostingSource; readonly offset: number; readonly length: number } | undefined {
    return this.#postings instanceof Uint8Array ? undefined : this.#postings;
  }

  /** The postings in memory (saving needs them: NgramIndex.loadPostings first). */
  get postings(): Uint8Array {
    if (!(this.#postings instanceof Uint8Array)) throw new Error('the postings are still on disk');
    return this.#postings;
  }

  /** The postings as read from the saved file. */
  fill(postings: Uint8Array): void {
    if (postings.length !== this.#postings.length) throw new Error('postings of another length');
    this.#postings = postings;
    this.#lists.clear();
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
    if (count > 0 && ends[count - 1] !== this.#postings.length) {
      this.#broken = true; // kept encoded: saved again as it is, and still answers "may match"
      return undefined;
    }
    this.#encoded = undefined;
    this.#table = { keys, ends };
    return this.#table;
  }

  /** Reads the lists of `keys` from disk when the postings are not in memory (a failed read: "may match"). */
  async prepare(keys: readonly number[]): Promise<void> {
    const disk = this.onDisk;
    const table = disk === undefined ? undefined : this.table();
    if (disk === undefined || table === undefined) return;
    await Promise.all(
      keys.map(async (key) => {
        const found = find(table, key);
        const kept = this.#lists.get(key);
        if (kept !== undefined) {
          this.#lists.delete(key); // most recently used last
          this.#lists.set(key, kept);
        }
        if (found === undefined || kept !== undefined) return;
        const [start, end] = found;
        const bytes = await disk.source.read(disk.offset + start, end - start).catch(() => undefined);
        if (bytes !== undefined && this.onDisk !== undefined) this.#lists.set(key, bytes);
      }),
    );
    // Bounded: a list dropped before its query evaluates it answers "may match" (never a miss).
    for (const key of this.#lists.keys()) {
      if (this.#lists.size <= Math.max(KEPT_LISTS, keys.length)) break;
      this.#lists.delete(key);
    }
  }

  /** Lists read from disk and kept (tests). */
  get keptLists(): number {
    return this.#lists.size;
  }

  /** The files of `key`'s list (local numbers, ascending); 'all' when it cannot tell. */
  list(key: number): Uint32Array | 'all' {
    const table = this.table();
    if (table === undefined) return 'all';
    const found = find(table, key);
    if (found === undefined) return new Uint32Array(0);
    const [start, end] = found;
    if (this.#postings instanceof Uint8Array) return decodeList(this.#postings, start, end);
    const bytes = this.#lists.get(key);
    return bytes === undefined ? 'all' : decodeList(bytes, 0, end - start);
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
    return tableBytes + (this.#postings instanceof Uint8Array ? this.#postings.byteLength : 0);
  }
}

/** The trigram keys a plan looks up. */
export function planKeys(plan: TrigramPlan, into: number[] = []): number[] {
  if (plan.op === 'tri') into.push(plan.key);
  else if (plan.op === 'and' || plan.op === 'or') for (const arg of plan.args) planKeys(arg, into);
  return into;
}

/** Local file numbers of a segment that satisfy `plan`, ascending ('all': every one). */
export function evaluate(plan: TrigramPlan, segment: Segment): Uint32Array | 'all' {
  switch (plan.op) {
    case 'all':
      return 'all';
    case 'tri':
      return segment.list(plan.key);
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

/** The range of `key`'s list in the postings, if the table has the key. */
function find(table: KeyTable, key: number): [number, number] | undefined {
  const { keys, ends } = table;
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = keys[mid]!;
    if (found < key) low = mid + 1;
    else if (found > key) high = mid - 1;
    else return [mid === 0 ? 0 : ends[mid - 1]!, ends[mid]!];
  }
  return undefined;
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
