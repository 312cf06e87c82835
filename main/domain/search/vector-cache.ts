import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../platform/storage/atomic-file';
import { ensureFolder } from '../../platform/storage/folders';
import { readJsonFile } from '../../platform/storage/json-file';

const FORMAT = 1;
const savedSchema = z.object({
  format: z.literal(FORMAT),
  model: z.string(),
  /** [chunk hash, unit vector as little-endian float32, base64]. */
  vectors: z.array(z.tuple([z.string(), z.string()])),
});

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
 * Embedding vectors of chunk texts for one model, in the Familiar home (`vectors-<model key>.json`
 * beside the indexes): keyed by the chunk text's hash, so an unchanged passage is never sent to the
 * provider twice, across restarts, renames and workspaces. A damaged or foreign file is a cache
 * miss, never an error.
 */
export class VectorCache {
  private readonly vectors = new Map<string, Float32Array>();
  private loading: Promise<void> | undefined;
  private changed = false;

  private constructor(
    readonly model: string,
    private readonly file: string,
  ) {}

  /** `modelKey` names the model and where it runs (the same name on two servers may differ). */
  static in(dir: string, modelKey: string): VectorCache {
    const name = createHash('sha256').update(modelKey).digest('hex').slice(0, 16);
    return new VectorCache(modelKey, join(dir, `vectors-${name}.json`));
  }

  load(): Promise<void> {
    this.loading ??= readJsonFile(this.file, savedSchema).then((saved) => {
      if (saved.state !== 'valid' || saved.value.model !== this.model) return;
      for (const [hash, base64] of saved.value.vectors) {
        const bytes = Buffer.from(base64, 'base64');
        if (bytes.length % 4 !== 0) continue;
        this.vectors.set(hash, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
      }
    });
    return this.loading;
  }

  get size(): number {
    return this.vectors.size;
  }

  get(hash: string): Float32Array | undefined {
    return this.vectors.get(hash);
  }

  set(hash: string, values: readonly number[]): void {
    this.vectors.set(hash, unitVector(values));
    this.changed = true;
  }

  async save(): Promise<void> {
    if (!this.changed) return;
    this.changed = false;
    const vectors = [...this.vectors].map(([hash, vector]) => [
      hash,
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64'),
    ]);
    await ensureFolder(dirname(this.file));
    await writeFileAtomic(this.file, JSON.stringify({ format: FORMAT, model: this.model, vectors }));
  }
}
