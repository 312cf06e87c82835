import { open } from 'node:fs/promises';
import { MAX_VIEWED_FILE_BYTES } from '../../shared/ipc/workspace';
import type { WorkspaceFile } from '../../shared/ipc/workspace';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { resolveWorkspacePath } from './workspace-paths';
import type { WorkspaceRoots } from './workspace-paths';

/** Git's heuristic: a NUL byte in the first 8,000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

/** A file's text for the read-only viewer: UTF-8 only, size-capped, never binary. */
export async function readWorkspaceText(
  roots: WorkspaceRoots,
  raw: string,
  maxBytes = MAX_VIEWED_FILE_BYTES,
): Promise<Result<WorkspaceFile>> {
  const location = await resolveWorkspacePath(roots, raw);
  if (!location.ok) return location;
  const { relPath, real } = location.value;
  const handle = await open(real, 'r').catch((error: NodeJS.ErrnoException) => error);
  if (handle instanceof Error) {
    return err('permission_denied', `'${relPath}' cannot be opened (${handle.code ?? 'unknown error'}).`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return err('not_a_file', `'${relPath}' is not a file.`);
    if (info.size > maxBytes) {
      return err('file_too_large', `'${relPath}' is ${info.size} bytes; the viewer opens files up to ${maxBytes}.`, {
        size: info.size,
        limit: maxBytes,
      });
    }
    // Read from the open handle: the file checked above is the file read, even if renamed meanwhile.
    const bytes = await handle.readFile();
    if (bytes.length > maxBytes)
      return err('file_too_large', `'${relPath}' grew past ${maxBytes} bytes while being read.`);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      return err('binary_file', `'${relPath}' looks like a binary file.`);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return err('encoding_error', `'${relPath}' is not UTF-8 text.`);
    }
    return ok({ path: relPath, text, size: bytes.length });
  } finally {
    await handle.close();
  }
}
