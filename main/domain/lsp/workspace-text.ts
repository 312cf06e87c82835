import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { decodeText, looksBinary } from '../../platform/disk/text-codec';
import type { ResolvedPath, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';

/** Larger files are not shown to a server: tsserver itself skips huge files, and the pipe would stall. */
export const maxDocumentBytes = 2 * 1024 * 1024;

export interface WorkspaceText {
  readonly path: ResolvedPath;
  readonly text: string;
}

/**
 * A file's text as the sandbox gives it (deny-list, concealment, symlink checks): the only way a
 * document reaches a language server from Familiar.
 */
export async function readWorkspaceText(sandbox: WorkspaceSandbox, raw: string): Promise<Result<WorkspaceText>> {
  const resolved = await sandbox.resolve(raw, 'read');
  if (!resolved.ok) return resolved;
  const path = resolved.value;
  if (path.facts === undefined) return err('file_not_found', `'${path.display}' does not exist.`);
  if (path.facts.kind !== 'file') return err('not_a_file', `'${path.display}' is not a file.`);
  const read = await sandbox.readWholeFile(path, maxDocumentBytes, (size) =>
    err('file_too_large', `'${path.display}' is ${size} bytes; code tools work on files up to ${maxDocumentBytes}.`),
  );
  if (!read.ok) return read;
  if (looksBinary(read.value.bytes.subarray(0, 8192), undefined)) {
    return err('binary_file', `'${path.display}' is a binary file.`);
  }
  const decoded = decodeText(read.value.bytes, 'utf-8');
  if (!decoded.ok) return decoded;
  return ok({ path, text: decoded.value.text });
}

/** One line of a text (1-based), trimmed and capped: the preview beside a location. */
export function lineOf(text: string, line: number, max = 200): string {
  const lines = text.split('\n');
  const found = (lines[line - 1] ?? '').replace(/\r$/, '').trim();
  return found.length > max ? `${found.slice(0, max)}…` : found;
}
