import { createHash } from 'node:crypto';
import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { gitFailed } from './git-output';
import type { Repository } from './git-repository';

/** An object id of all zeros (the length says the hash: 40 for SHA-1, 64 for SHA-256). */
export const isZeroOid = (oid: string) => /^0+$/.test(oid);

/** The id git gives `bytes` as a blob, in the repository's hash (known from the length of its ids). */
export function blobOid(bytes: Uint8Array, oidLength: number): string {
  const hash = createHash(oidLength === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex');
}

/** Sizes of blobs by id (`git cat-file --batch-check`); a missing one is left out. */
export async function blobSizes(repo: Repository, oids: readonly string[]): Promise<Result<Map<string, number>>> {
  const sizes = new Map<string, number>();
  if (oids.length === 0) return ok(sizes);
  const run = await repo.git(['cat-file', '--batch-check'], { stdin: `${oids.join('\n')}\n` });
  if (!run.ok) return run;
  if (run.value.exitCode !== 0) return gitFailed('cat-file', run.value);
  for (const line of run.value.stdout.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (oid !== undefined && type === 'blob' && size !== undefined) sizes.set(oid, Number(size));
  }
  return ok(sizes);
}

/**
 * Blob contents by id (`git cat-file --batch`): objects from the repository folder, which was checked
 * to lie inside the workspace. Raw bytes, no filters or textconv. `maxBytes` bounds the whole answer.
 */
export async function readBlobs(
  repo: Repository,
  oids: readonly string[],
  maxBytes: number,
): Promise<Result<Map<string, Buffer>>> {
  const blobs = new Map<string, Buffer>();
  if (oids.length === 0) return ok(blobs);
  const run = await repo.git(['cat-file', '--batch'], {
    stdin: `${oids.join('\n')}\n`,
    stdoutBytes: true,
    // Headers and separators on top of the contents.
    maxOutputBytes: maxBytes + oids.length * 100,
  });
  if (!run.ok) return run;
  const bytes = run.value.stdoutBytes;
  if (run.value.exitCode !== 0 || bytes === undefined) return gitFailed('cat-file', run.value);
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf(0x0a, at);
    if (end === -1) break;
    const [oid, type, size] = bytes.subarray(at, end).toString('latin1').split(' ');
    at = end + 1;
    if (oid === undefined || size === undefined || type === 'missing') continue;
    const length = Number(size);
    blobs.set(oid, bytes.subarray(at, at + length));
    // The content, then one newline.
    at += length + 1;
  }
  return ok(blobs);
}
