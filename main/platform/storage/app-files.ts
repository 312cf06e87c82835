import { createReadStream, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { readFile, stat } from 'node:fs/promises';

/**
 * Files shipped with the app (the built renderer, resources such as the package-type marker):
 * read-only, and never anything the user or the assistant names.
 */
export interface AppFile {
  readonly size: number;
  /** The file's bytes, streamed (opened lazily, when the stream is first read). */
  stream(): Readable;
}

/** A regular app file, or null when there is none at `path` (missing, a folder, unreadable). */
export async function openAppFile(path: string): Promise<AppFile | null> {
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile()) return null;
  return { size: info.size, stream: () => createReadStream(path) };
}

/** A whole app file; rejects when it cannot be read. */
export function readAppFile(path: string): Promise<Buffer> {
  return readFile(path);
}

/** A small text resource read at start-up, or undefined when it is missing or unreadable. */
export function readAppTextSync(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
