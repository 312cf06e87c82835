import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file';
import { readDataBytes } from './binary-file';
import { dataFileFacts } from './data-files';
import { ensureFolder } from './folders';

const hashPattern = /^[0-9a-f]{64}$/;

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * A folder of files named by the SHA-256 of their bytes (chat pictures): the same bytes are kept once
 * however many messages name them, and a file is never rewritten, so nothing that names a hash can
 * see it change. Files are the user's only (0600 in a 0700 folder).
 */
export interface ContentFiles {
  /** Keeps the bytes (written atomically unless already there) and answers their hash. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes of a hash, or undefined when none are kept (or the name is not a hash). */
  get(hash: string): Promise<Buffer | undefined>;
}

export function openContentFiles(dir: string): ContentFiles {
  return {
    async put(bytes) {
      const hash = sha256Of(bytes);
      await ensureFolder(dir, 0o700);
      const file = join(dir, hash);
      const present = await dataFileFacts(file).then(
        (facts) => facts.kind === 'file' && facts.size === bytes.length,
        () => false,
      );
      if (!present) await writeFileAtomic(file, bytes);
      return hash;
    },
    async get(hash) {
      if (!hashPattern.test(hash)) return undefined;
      const bytes = await readDataBytes(join(dir, hash));
      // A file changed on disk is not the picture its name promises.
      return bytes !== undefined && sha256Of(bytes) === hash ? bytes : undefined;
    },
  };
}
