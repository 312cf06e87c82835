import { MAX_VIEWED_FILE_BYTES } from '../../../shared/ipc/workspace';
import type { WorkspaceFile } from '../../../shared/ipc/workspace';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { resolveWorkspacePath, userView } from './workspace-paths';
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
  const { relPath } = location.value;
  // Read from the descriptor the sandbox opened: the file checked is the file read.
  const read = await userView(roots).readWholeFile(location.value, maxBytes, (size) =>
    err('file_too_large', `'${relPath}' is ${size} bytes; the viewer opens files up to ${maxBytes}.`, {
      size,
      limit: maxBytes,
    }),
  );
  if (!read.ok) {
    if (read.error.code === 'not_a_file') return err('not_a_file', `'${relPath}' is not a file.`);
    return read;
  }
  const { bytes } = read.value;
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
}
