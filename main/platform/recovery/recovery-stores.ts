import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { fsError } from '../disk/fs-errors';
import { pruneRecoveryStore } from './recovery-retention';
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
  /** Moves a file or folder out of the workspace instead of deleting it; answers where it went. */
  moveIn(sandbox: Sandbox, path: ResolvedPath): Promise<Result<string>>;
}

function slot(): string {
  const now = new Date();
  const stamp = now.toISOString().replaceAll(':', '').replace('.', '-');
  return join(stamp.slice(0, 10), `${stamp.slice(11)}-${randomBytes(4).toString('hex')}`);
}

const baseName = (relPath: string) => relPath.slice(relPath.lastIndexOf('/') + 1) || 'workspace';

async function prepareSlot(dir: string, sandbox: Sandbox, path: ResolvedPath, action: string): Promise<string> {
  const folder = join(dir, slot());
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const base = path.inPersona ? sandbox.personaDir : sandbox.workspaceRoot;
  const manifest = {
    // Where it was, for a person putting it back: informational, never opened by Familiar.
    original: path.realRel === '' ? base : join(base, path.realRel),
    workspacePath: path.relPath,
    action,
    at: new Date().toISOString(),
  };
  await writeFile(join(folder, 'restore.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return folder;
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
  /** Puts the entry into a new slot, by copy or by move: the slot's path, or why not. */
  const intoSlot = async (
    sandbox: Sandbox,
    path: ResolvedPath,
    put: (target: string) => Result<unknown>,
  ): Promise<Result<string>> => {
    try {
      const target = join(await prepareSlot(dir, sandbox, path, action), baseName(path.realRel));
      const placed = put(target);
      if (!placed.ok) return placed;
      prune();
      return ok(target);
    } catch (error) {
      return fsError(error, path.display);
    }
  };
  return {
    keepCopy: (sandbox, path) => intoSlot(sandbox, path, (target) => sandbox.copyOut(path, target)),
    moveIn: (sandbox, path) => intoSlot(sandbox, path, (target) => sandbox.moveOut(path, target)),
  };
}
