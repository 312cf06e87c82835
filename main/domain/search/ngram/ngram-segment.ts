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

/**
 * A segment as the index holds it: the worker's answer, its files numbered from `base`. One read
 * back from disk keeps its key table encoded and its postings a view of the file's bytes until a
 * query first needs them (issue 32 item 2: opening the index reads headers only).
 */
export class Segment {
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

/** Local file numbers of a segment that satisfy `plan`, ascending ('all': every one). */
export function evaluate(plan: TrigramPlan, segment: Segment): Uint32Array | 'all' {
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
