import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { OpenFile } from '../../platform/disk/anchored-read';
import { copyToChosenFile } from '../../platform/disk/chosen-file';
import type { EntryFacts, WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { formatBytes } from '../../../shared/format-bytes';

/** What was checked when the file was offered; the user may act on the offer minutes later. */
export interface OfferedFacts {
  /** Workspace-relative display path. */
  readonly path: string;
  /** The real entry the sandbox resolved at offer time (ResolvedPath.key). */
  readonly key: string;
  readonly ino: number;
  readonly bytes: number;
}

const changedSince = (offered: OfferedFacts) =>
  err(
    'concurrent_modification',
    `'${offered.path}' changed since it was offered; ask the assistant to offer it again.`,
  );

const sameFile = (offered: OfferedFacts, facts: EntryFacts) =>
  facts.kind === 'file' && facts.ino === offered.ino && facts.size === offered.bytes;

/**
 * Opens the offered file again, as it is now: through the sandbox of the moment (workspace, memory
 * concealment, deny-list), without following a final symlink (O_NOFOLLOW), and only if the handle
 * holds the very file offered (same inode and size). Everything after reads from this handle, so a
 * symlink or a bigger file swapped in after the offer is never read.
 */
export async function reopenOfferedFile(
  sandbox: WorkspaceSandbox,
  offered: OfferedFacts,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Result<OpenFile>> {
  const resolved = await sandbox.resolve(offered.path, 'read');
  if (!resolved.ok) return resolved;
  if (resolved.value.facts === undefined) return err('file_not_found', `'${offered.path}' is gone.`);
  if (resolved.value.key !== offered.key) return changedSince(offered);
  const opened = sandbox.openForRead(resolved.value);
  if (!opened.ok) return opened;
  const { handle, facts } = opened.value;
  if (facts.kind === 'file' && facts.size > maxBytes) {
    await handle.close();
    return err(
      'file_too_large',
      `'${offered.path}' is now ${formatBytes(facts.size)}, more than a browser download carries here (${formatBytes(maxBytes)}).`,
    );
  }
  if (!sameFile(offered, facts)) {
    await handle.close();
    return changedSince(offered);
  }
  return opened;
}

/** The whole offered file, read from the open handle; refused if it was written to meanwhile. */
export async function readOfferedFile(opened: OpenFile, offered: OfferedFacts): Promise<Result<Buffer>> {
  const { handle, facts } = opened;
  try {
    const bytes = await handle.readAll(facts.size);
    const after = await handle.stat();
    // Written to while being read (same inode, new size or time): the bytes may be torn.
    if (bytes.length !== facts.size || after.size !== facts.size || after.mtimeMs !== facts.mtimeMs) {
      return changedSince(offered);
    }
    return ok(bytes);
  } finally {
    await handle.close();
  }
}

/** Copies exactly the offered bytes from the open handle to where the user chose to save them. */
export async function copyOfferedFile(opened: OpenFile, target: string): Promise<Result<void>> {
  try {
    await copyToChosenFile(opened, target);
    return ok(undefined);
  } catch (error) {
    return err('permission_denied', `Could not save to ${target}: ${String(error)}`);
  } finally {
    await opened.handle.close();
  }
}
