/**
 * The trigram index's path table: every indexed file's workspace path by its number (issue 32
 * item 2). A saved table is read as it lies in the file (one buffer of UTF-8 paths, their offsets,
 * per path a hash, and an open-addressing hash table of the live numbers) and decoded one path at a
 * time, only when a lookup or a listing needs it: opening an index builds no string or map for its
 * 60k files. Paths indexed, indexed again or forgotten after that are held in a map beside it.
 */

/** A saved path table as ngram-file.ts reads it (checked there: offsets ascend, slots in range). */
export interface SavedPaths {
  /** Paths (file numbers) in the table. */
  readonly count: number;
  /** count + 1 ascending byte offsets into `bytes`: path i is bytes[offsets[i], offsets[i + 1]). */
  readonly offsets: Uint32Array;
  readonly bytes: Buffer;
  /** pathHash of each path. */
  readonly hashes: Uint32Array;
  /** A power of two of slots, each 0 (empty) or a live number + 1; linear probing from hash & mask. */
  readonly slots: Uint32Array;
}

/** FNV-1a over the path's UTF-16 code units: the saved slots depend on it, so it never changes. */
export function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i += 1) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const noSaved: SavedPaths = {
  count: 0,
  offsets: new Uint32Array(1),
  bytes: Buffer.alloc(0),
  hashes: new Uint32Array(0),
  slots: new Uint32Array(1),
};

export class PathTable {
  readonly #saved: SavedPaths;
  /** Paths numbered after the saved ones, in order. */
  readonly #added: string[] = [];
  /** Where a path points now when that changed since the table was saved (undefined: forgotten). */
  readonly #changed = new Map<string, number | undefined>();
  /** Saved numbers whose path is in #changed: their slot no longer speaks for that path. */
  readonly #superseded = new Set<number>();
  /**
   * Saved paths decoded so far. A warm query lists the index's 60k files: decoding them again at
   * each query cost more than the rest of the query (a call per path, ~20 ms); held, ~4 MB.
   */
  #decoded: string[] | undefined;

  constructor(saved: SavedPaths = noSaved) {
    this.#saved = saved;
  }

  /** File numbers given out (live and dead). */
  get length(): number {
    return this.#saved.count + this.#added.length;
  }

  /** The live number of `path`, if it has one. */
  idOf(path: string): number | undefined {
    const changed = this.#changed.get(path);
    if (changed !== undefined || this.#changed.has(path)) return changed;
    return this.#savedIdOf(path);
  }

  /** A new number for `path` (the caller points the path at it). */
  push(path: string): number {
    this.#added.push(path);
    return this.length - 1;
  }

  /** `path` now has the live number `id`, or none. */
  point(path: string, id: number | undefined): void {
    if (!this.#changed.has(path)) {
      const saved = this.#savedIdOf(path);
      if (saved !== undefined) this.#superseded.add(saved);
    }
    this.#changed.set(path, id);
  }

  pathOf(id: number): string {
    const saved = this.#saved;
    if (id >= saved.count) return this.#added[id - saved.count]!;
    const decoded = (this.#decoded ??= new Array<string>(saved.count));
    return (decoded[id] ??= saved.bytes.toString('utf8', saved.offsets[id], saved.offsets[id + 1]));
  }

  /** The paths with a live number. */
  live(): string[] {
    const paths: string[] = [];
    this.forEachLive((path) => paths.push(path));
    return paths;
  }

  /** Each path with a live number, with that number (in no particular order). */
  forEachLive(visit: (path: string, id: number) => void): void {
    this.forEachLiveId((id) => visit(this.pathOf(id), id));
  }

  /**
   * Each live number (in no particular order), its path not decoded: a warm query's listing passes
   * over the 60k files that cannot match by number alone (search-index-engine.ts).
   */
  forEachLiveId(visit: (id: number) => void): void {
    const { slots } = this.#saved;
    const superseded = this.#superseded;
    for (let slot = 0; slot < slots.length; slot += 1) {
      const entry = slots[slot]!;
      if (entry !== 0 && (superseded.size === 0 || !superseded.has(entry - 1))) visit(entry - 1);
    }
    for (const id of this.#changed.values()) if (id !== undefined) visit(id);
  }

  /** The table as saved: every number's path (UTF-8), and slots for those `isLive` keeps. */
  encode(isLive: (id: number) => boolean): SavedPaths {
    const saved = this.#saved;
    const count = this.length;
    const added = this.#added.map((path) => Buffer.from(path, 'utf8'));
    const offsets = new Uint32Array(count + 1);
    offsets.set(saved.offsets);
    const hashes = new Uint32Array(count);
    hashes.set(saved.hashes);
    let at = saved.bytes.length;
    added.forEach((bytes, i) => {
      at += bytes.length;
      offsets[saved.count + i + 1] = at;
      hashes[saved.count + i] = pathHash(this.#added[i]!);
    });
    let live = 0;
    for (let id = 0; id < count; id += 1) if (isLive(id)) live += 1;
    let size = 16;
    while (size < live * 2) size *= 2;
    const slots = new Uint32Array(size);
    for (let id = 0; id < count; id += 1) {
      if (!isLive(id)) continue;
      let slot = hashes[id]! & (size - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      slots[slot] = id + 1;
    }
    return { count, offsets, bytes: Buffer.concat([saved.bytes, ...added]), hashes, slots };
  }

  #savedIdOf(path: string): number | undefined {
    const { slots, hashes } = this.#saved;
    const mask = slots.length - 1;
    const hash = pathHash(path);
    for (let slot = hash & mask, probes = 0; probes < slots.length; slot = (slot + 1) & mask, probes += 1) {
      const entry = slots[slot]!;
      if (entry === 0) return undefined;
      const id = entry - 1;
      if (hashes[id] === hash && this.#savedPathIs(id, path)) return id;
    }
    return undefined;
  }

  /** Saved path `id` is `path` (ASCII compared byte by byte; other text decoded). */
  #savedPathIs(id: number, path: string): boolean {
    const { bytes, offsets } = this.#saved;
    const start = offsets[id]!;
    const end = offsets[id + 1]!;
    if (end - start === path.length) {
      let i = 0;
      // ASCII only: a code unit 0x80..0xff equal to a byte of a UTF-8 sequence proves nothing.
      for (let code = path.charCodeAt(0); i < path.length && code < 0x80 && bytes[start + i] === code;) {
        i += 1;
        code = path.charCodeAt(i);
      }
      if (i === path.length) return true;
      // A mismatch between two ASCII characters settles it; anything else is decoded.
      if (path.charCodeAt(i) < 0x80 && bytes[start + i]! < 0x80) return false;
    } else if (end - start < path.length) {
      return false; // UTF-8 never takes fewer bytes than UTF-16 code units
    }
    return bytes.toString('utf8', start, end) === path;
  }
}
