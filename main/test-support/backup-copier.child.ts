import { realpath } from 'node:fs/promises';
import { createAnchorRoots } from '../platform/disk/anchor-roots';
import { createRecoveryStore } from '../platform/recovery/recovery-stores';
import { createWorkspaceSandbox } from '../platform/disk/workspace-sandbox';

/**
 * The process recovery-stores.test.ts kills: it keeps a backup of one big workspace file into the
 * backup store, again and again, forever, and says "ready" after the first. Nearly all its time is
 * the copy, so a SIGKILL lands in the middle of one. Bundled for a plain node process by
 * bundleChildScript.
 */
/** Its arguments: the workspace, the backups folder and the file it backs up again and again. */
export async function copyForever([workspace = '', backups = '', file = '']: readonly string[]): Promise<never> {
  const root = await realpath(workspace);
  const sandbox = createWorkspaceSandbox({
    workspaceRoot: root,
    personaDir: root,
    roots: createAnchorRoots(),
    isConcealed: () => false,
  });
  // No retention: the test counts every slot a kill left.
  const store = createRecoveryStore(backups, 'backup');
  for (let i = 0; ; i += 1) {
    const path = await sandbox.resolve(file, 'read');
    if (!path.ok) throw new Error(path.error.message);
    const kept = await store.keepCopy(sandbox, path.value);
    if (!kept.ok) throw new Error(kept.error.message);
    if (i === 0) process.stdout.write('ready\n');
  }
}
