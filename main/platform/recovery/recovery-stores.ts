import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { writeFileAtomic } from '../storage/atomic-file';
import { fsError } from '../disk/fs-errors';
import { manifestName, pruneRecoveryStore, sweepIncompleteSlots } from './recovery-retention';
import type { RecoveryRetention } from './recovery-retention';
import type { ResolvedPath, WorkspaceSandbox } from '../disk/workspace-sandbox';

/** What a store needs of the sandbox: the two ways out, and the folders for the manifest. */
type Sandbox = Pick<WorkspaceSandbox, 'copyOut' | 'moveOut' | 'workspaceRoot' | 'personaDir'>;

/**
 * Where replaced and deleted files go: Familiar's data folder, never the workspace. Every saved item
 * sits in its own folder next to a `restore.json` that says where it came from, so a person (or a
 * "restore" button) can put it back. The bytes leave the workspace through the sandbox.
 */
export interface RecoveryStore {
  /** Keeps a COPY of a file about to be replaced (never a hard link); answers the copy's path. */
  keepCopy(sandbox: Sandbox, path: ResolvedPath): Promise<Result<string>>;
  /**
   * Keeps `bytes`, the file as the caller just read it through the sandbox, as the copy of `path`:
   * one write instead of a second read (edits of a file they hold). Whole or absent, like keepCopy.
   */
  keepBytes(sandbox: Sandbox, path: ResolvedPath, bytes: Uint8Array): Promise<Result<string>>;
  /** Moves a file or folder out of the workspace instead of deleting it; answers where it went. */
  moveIn(sandbox: Sandbox, path: ResolvedPath): Promise<Result<string>>;
}

function slot(): string {
  const now = new Date();
  const stamp = now.toISOString().replaceAll(':', '').replace('.', '-');
  // The pid says whose copy is in progress: the start sweep of another process on the same home spares it.
  return join(stamp.slice(0, 10), `${stamp.slice(11)}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * The item's name in its slot: its own, unless that is the manifest's (in any case, for
 * case-insensitive disks), which the item would otherwise replace or be replaced by.
 */
function itemName(relPath: string): string {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1) || 'workspace';
  return base.toLowerCase() === manifestName ? `${base}.kept` : base;
}

async function newSlot(dir: string): Promise<string> {
  const folder = join(dir, slot());
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return folder;
}

const discard = (folder: string) => rm(folder, { recursive: true, force: true }).catch(() => undefined);

/** Writes `restore.json` whole or not at all (temp, fsync, rename, fsync of the slot folder). */
async function writeManifest(folder: string, sandbox: Sandbox, path: ResolvedPath, action: string): Promise<void> {
  const base = path.inPersona ? sandbox.personaDir : sandbox.workspaceRoot;
  const manifest = {
    // Where it was, for a person putting it back: informational, never opened by Familiar.
    original: path.realRel === '' ? base : join(base, path.realRel),
    workspacePath: path.relPath,
    action,
    at: new Date().toISOString(),
  };
  await writeFileAtomic(join(folder, manifestName), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** At most one retention sweep a minute: keeping a copy stays cheap even with thousands kept. */
const pruneEveryMs = 60_000;

export function createRecoveryStore(
  dir: string,
  action: 'backup' | 'trash',
  retention?: () => RecoveryRetention,
): RecoveryStore {
  let lastPrune = 0;
  let pruning: Promise<unknown> = Promise.resolve();
  const prune = () => {
    if (retention === undefined || Date.now() - lastPrune < pruneEveryMs) return;
    lastPrune = Date.now();
    pruning = pruning.then(() => pruneRecoveryStore(dir, retention())).catch(() => undefined);
  };
  /**
   * A backup is whole or absent (issue 33): a kill mid-copy left a partial copy beside its
   * `restore.json`, taken for the file by whoever restored it. The copy goes under a temp name (the
   * copy fsyncs it), is renamed when complete, and `restore.json` comes last; a slot without it is
   * swept at the next start, and at once when the copy fails. Until the copy is whole the original is
   * untouched (the write waits for this), so nothing is lost by sweeping.
   */
  const keep = async (
    sandbox: Sandbox,
    path: ResolvedPath,
    copy: (partial: string) => Promise<Result<void>>,
  ): Promise<Result<string>> => {
    const name = itemName(path.realRel);
    let folder: string | undefined;
    try {
      folder = await newSlot(dir);
      const partial = join(folder, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      const copied = await copy(partial);
      if (!copied.ok) {
        await discard(folder);
        return copied;
      }
      await rename(partial, join(folder, name));
      await writeManifest(folder, sandbox, path, action);
      prune();
      return ok(join(folder, name));
    } catch (error) {
      if (folder !== undefined) await discard(folder);
      return fsError(error, path.display);
    }
  };
  const keepCopy = (sandbox: Sandbox, path: ResolvedPath) =>
    keep(sandbox, path, (partial) => Promise.resolve(sandbox.copyOut(path, partial)));
  const keepBytes = (sandbox: Sandbox, path: ResolvedPath, bytes: Uint8Array) =>
    keep(sandbox, path, async (partial) => {
      // As copyOut makes it: a new file with the original's permission bits, synced before its rename.
      const file = await open(partial, 'wx', (path.facts?.mode ?? 0o600) & 0o777);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      return ok(undefined);
    });
  /**
   * Trash keeps the old order, `restore.json` first: a move is one rename (or a copy that removes the
   * original only once complete), and a moved item without its manifest would be swept with the only
   * copy of the file.
   */
  const moveIn = async (sandbox: Sandbox, path: ResolvedPath): Promise<Result<string>> => {
    try {
      const folder = await newSlot(dir);
      await writeManifest(folder, sandbox, path, action);
      const target = join(folder, itemName(path.realRel));
      const moved = sandbox.moveOut(path, target);
      if (!moved.ok) return moved;
      prune();
      return ok(target);
    } catch (error) {
      return fsError(error, path.display);
    }
  };
  // Before this process makes any slot. Only backups: see moveIn for why trash is never swept.
  if (action === 'backup') sweepIncompleteSlots(dir);
  return { keepCopy, keepBytes, moveIn };
}
