import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../platform/storage/atomic-file';
import { appendDataBytes, readDataBytes } from '../../platform/storage/binary-file';
import { ensureFolder } from '../../platform/storage/folders';

const MAGIC = 'FVQ1';
/** Raw SHA-1 of the passage text (the chunk hash, decoded). */
const HASH_BYTES = 20;

/** Vectors keep unit length, so cosine similarity is a dot product. */
export function unitVector(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let at = 0; at < vector.length; at += 1) vector[at] = (vector[at] as number) / norm;
  return vector;
}

/**
 * Embedding vectors of chunk texts for one model, in the Familiar home (`vectors-<model key>.bin`
 * beside the indexes): keyed by the chunk text's hash, so an unchanged passage is never sent to the
 * provider twice, across restarts, renames and workspaces.
 *
 * Compact (issue 32): each unit vector is quantized to int8 with one float32 scale (a quarter of
 * float32, ranking unchanged in practice), held in one growing Int8Array, and appended to the file
 * batch by batch as the embedding pass goes (segments), so a restart in the middle of a build keeps
 * every batch it finished. The file is a header (magic, dimensions, model) and fixed-size records
 * (hash, scale, int8 values); a torn last record, another model's or a damaged file is a cache miss,
 * never an error.
 */
export class VectorCache {
  readonly #slots = new Map<string, number>();
  #dims = 0;
  #values = new Int8Array(0);
  #scales = new Float32Array(0);
  /** Records set since the last save, as they go to the file. */
  #pending: Buffer[] = [];
  /** The file holds another model's (or no) header: the next save starts it afresh. */
  #fresh = true;
  #loading: Promise<void> | undefined;
  #saving: Promise<void> = Promise.resolve();

  private constructor(
    readonly model: string,
    private readonly file: string,
  ) {}

  /** `modelKey` names the model and where it runs (the same name on two servers may differ). */
  static in(dir: string, modelKey: string): VectorCache {
    const name = createHash('sha256').update(modelKey).digest('hex').slice(0, 16);
    return new VectorCache(modelKey, join(dir, `vectors-${name}.bin`));
  }

  load(): Promise<void> {
    this.#loading ??= readDataBytes(this.file).then((bytes) => {
      if (bytes !== undefined) this.#read(bytes);
    });
    return this.#loading;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** Bytes the vectors take in memory. */
  get bytes(): number {
    return this.#values.byteLength + this.#scales.byteLength;
  }

  has(hash: string): boolean {
    return this.#slots.has(hash);
  }

  /** The cosine of a unit query vector with the passage's vector (undefined: none, or other dimensions). */
  score(hash: string, query: Float32Array): number | undefined {
    const slot = this.#slots.get(hash);
    if (slot === undefined || query.length !== this.#dims) return undefined;
    const values = this.#values;
    const base = slot * this.#dims;
    let sum = 0;
    for (let at = 0; at < query.length; at += 1) sum += (query[at] as number) * (values[base + at] as number);
    return sum * (this.#scales[slot] as number);
  }

  set(hash: string, values: readonly number[]): void {
    if (this.#slots.has(hash) || values.length === 0) return;
    if (this.#dims !== values.length) {
      // Another model behind the same name (or the first vector): start over.
      if (this.#slots.size > 0) this.#slots.clear();
      this.#dims = values.length;
      this.#fresh = true;
      this.#pending = [];
    }
    const unit = unitVector(values);
    let max = 0;
    for (const value of unit) max = Math.max(max, Math.abs(value));
    const scale = max === 0 ? 0 : max / 127;
    const record = Buffer.alloc(this.#recordBytes());
    Buffer.from(hash, 'base64url').copy(record, 0, 0, HASH_BYTES);
    record.writeFloatLE(scale, HASH_BYTES);
    for (let at = 0; at < unit.length; at += 1) {
      record.writeInt8(scale === 0 ? 0 : Math.round((unit[at] as number) / scale), HASH_BYTES + 4 + at);
    }
    this.#add(hash, record);
    this.#pending.push(record);
  }

  /** Appends the vectors set since the last save (one write per embedded batch). */
  save(): Promise<void> {
    this.#saving = this.#saving.then(async () => {
      if (this.#pending.length === 0) return;
      const records = Buffer.concat(this.#pending);
      this.#pending = [];
      await ensureFolder(dirname(this.file));
      if (this.#fresh) {
        this.#fresh = false;
        await writeFileAtomic(this.file, Buffer.concat([this.#header(), records]));
      } else await appendDataBytes(this.file, records);
    });
    return this.#saving;
  }

  #recordBytes(): number {
    return HASH_BYTES + 4 + this.#dims;
  }

  #header(): Buffer {
    const model = Buffer.from(this.model, 'utf8');
    const header = Buffer.alloc(12 + model.length);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(this.#dims, 4);
    header.writeUInt32LE(model.length, 8);
    model.copy(header, 12);
    return header;
  }

  #add(hash: string, record: Buffer): void {
    const slot = this.#slots.size;
    const dims = this.#dims;
    if ((slot + 1) * dims > this.#values.length) {
      const capacity = Math.max(64, slot * 2);
      const values = new Int8Array(capacity * dims);
      values.set(this.#values.subarray(0, slot * dims));
      const scales = new Float32Array(capacity);
      scales.set(this.#scales.subarray(0, slot));
      this.#values = values;
      this.#scales = scales;
    }
    this.#scales[slot] = record.readFloatLE(HASH_BYTES);
    this.#values.set(new Int8Array(record.buffer, record.byteOffset + HASH_BYTES + 4, dims), slot * dims);
    this.#slots.set(hash, slot);
  }

  #read(bytes: Buffer): void {
    if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== MAGIC) return;
    const dims = bytes.readUInt32LE(4);
    const modelLength = bytes.readUInt32LE(8);
    if (dims === 0 || 12 + modelLength > bytes.length) return;
    if (bytes.toString('utf8', 12, 12 + modelLength) !== this.model) return;
    this.#dims = dims;
    this.#fresh = false;
    const size = this.#recordBytes();
    // Whole records only: a crash in the middle of an append leaves a torn one at the end.
    for (let at = 12 + modelLength; at + size <= bytes.length; at += size) {
      const record = bytes.subarray(at, at + size);
      const hash = record.subarray(0, HASH_BYTES).toString('base64url');
      if (!this.#slots.has(hash)) this.#add(hash, record);
    }
    const torn = (bytes.length - 12 - modelLength) % size;
    // The next append would land after the torn bytes and shift every record: rewrite instead.
    if (torn !== 0) {
      this.#fresh = true;
      this.#pending = [];
      for (const [hash, slot] of this.#slots) this.#pending.push(this.#recordOf(hash, slot));
    }
  }

  #recordOf(hash: string, slot: number): Buffer {
    const record = Buffer.alloc(this.#recordBytes());
    Buffer.from(hash, 'base64url').copy(record, 0, 0, HASH_BYTES);
    record.writeFloatLE(this.#scales[slot] as number, HASH_BYTES);
    record.set(new Uint8Array(this.#values.buffer, slot * this.#dims, this.#dims), HASH_BYTES + 4);
    return record;
  }
}
