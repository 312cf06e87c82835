import { createHash } from 'node:crypto';
import type { PositionedFile } from '../../../platform/storage/positioned-file';

/** Where an index's segment files and manifest live (saved-index.ts: the Familiar home). */
export interface SegmentStore {
  /** Writes a new segment file (whole, atomically: its parts one after another) and opens it. */
  write(name: string, parts: readonly Uint8Array[]): Promise<PositionedFile>;
  open(name: string): PositionedFile | undefined;
  /** The segment files present (named or not by the manifest). */
  list(): Promise<string[]>;
  remove(name: string): Promise<void>;
  readManifest(): Promise<unknown>;
  /** Written atomically, after the segments it names. */
  writeManifest(manifest: Manifest): Promise<void>;
}

export interface Manifest {
  readonly format: number;
  readonly root: string;
  readonly segments: readonly { readonly name: string; readonly deleted: readonly number[] }[];
}

export const MANIFEST_FORMAT = 1;

/** A new segment file's name: unique, so a crash's leftover never collides. */
export const segmentName = () =>
  `${Date.now().toString(36)}-${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 8)}.seg`;

export function isManifest(value: unknown): value is Manifest {
  if (typeof value !== 'object' || value === null) return false;
  const manifest = value as Partial<Manifest>;
  return (
    Array.isArray(manifest.segments) &&
    manifest.segments.every(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as { name?: unknown }).name === 'string' &&
        Array.isArray((entry as { deleted?: unknown }).deleted),
    )
  );
}
