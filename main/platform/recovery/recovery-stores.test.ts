import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useKillableChild } from '../../test-support/kill-after-ready';
import { err } from '../../../shared/result';
import { useTempDirs } from '../../test-support/temp-dir';
import { createAnchorRoots } from '../disk/anchor-roots';
import { createRecoveryStore } from './recovery-stores';
import { createWorkspaceSandbox } from '../disk/workspace-sandbox';

const tempDir = useTempDirs();

/** The pid of a process that has exited: a writer that is gone. */
const deadPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** Every slot folder of a store, as 'day/slot'. */
async function slotsOf(dir: string): Promise<string[]> {
  const slots: string[] = [];
  for (const day of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(join(dir, day)).catch(() => [] as string[])) slots.push(`${day}/${name}`);
  }
  return slots.sort();
}

async function workspaceWith(files: Record<string, string | Buffer>) {
  const root = await realpath(await tempDir('familiar-recovery-'));
  const workspace = join(root, 'project');
  await mkdir(workspace);
  for (const [name, content] of Object.entries(files)) await writeFile(join(workspace, name), content);
  const sandbox = createWorkspaceSandbox({
    workspaceRoot: workspace,
    personaDir: workspace,
    roots: createAnchorRoots(),
    isConcealed: () => false,
  });
  return { root, workspace, sandbox, backups: join(root, 'backups') };
}

describe('the backup store', () => {
  it('sweeps at start the slots without restore.json whose writer is gone, and keeps every other', async () => {
    const dir = await tempDir('familiar-backups-');
    const day = join(dir, '2026-11-25');
    const slot = async (name: string, files: Record<string, string>) => {
      await mkdir(join(day, name), { recursive: true });
      for (const [file, content] of Object.entries(files)) await writeFile(join(day, name, file), content);
    };
    const complete = `031501-123Z-${deadPid()}-ab12cd34`;
    const inProgress = `031505-123Z-${process.pid}-ab12cd38`;
    await slot(complete, { 'big.bin': 'the whole copy', 'restore.json': '{}' });
    await slot(`031502-123Z-${deadPid()}-ab12cd35`, { '.big.bin.0123456789ab.tmp': 'half a co' });
    await slot(`031503-123Z-${deadPid()}-ab12cd36`, { 'big.bin': 'whole but never described' });
    await slot('031504-123Z-ab12cd37', {}); // named before the pid, killed before its restore.json
    await slot(inProgress, { '.big.bin.0123456789ab.tmp': 'being copied now' });
    await slot('not-a-slot', { 'notes.txt': 'not ours' });

    createRecoveryStore(dir, 'backup');
    expect(await slotsOf(dir)).toEqual([complete, inProgress, 'not-a-slot'].map((name) => `2026-11-25/${name}`));
    expect(await readFile(join(day, complete, 'big.bin'), 'utf8')).toBe('the whole copy');

    // Trash is never swept: a moved item is the only copy of the file.
    const trash = await tempDir('familiar-trash-');
    await mkdir(join(trash, '2026-11-25', `031501-123Z-${deadPid()}-ab12cd34`), { recursive: true });
    createRecoveryStore(trash, 'trash');
    expect(await slotsOf(trash)).toHaveLength(1);
  });

  it('keeps a whole copy beside its restore.json and nothing else, also of a file named restore.json', async () => {
    const { sandbox, backups } = await workspaceWith({ 'a.txt': 'alpha', 'restore.json': '{"mine":true}' });
    const store = createRecoveryStore(backups, 'backup');
    for (const [name, content] of [
      ['a.txt', 'alpha'],
      ['restore.json', '{"mine":true}'],
    ] as const) {
      const path = await sandbox.resolve(name, 'read');
      if (!path.ok) throw new Error(path.error.message);
      const kept = await store.keepCopy(sandbox, path.value);
      if (!kept.ok) throw new Error(kept.error.message);
      expect(await readFile(kept.value, 'utf8')).toBe(content);
      const slot = join(kept.value, '..');
      expect((await readdir(slot)).sort()).toEqual(
        [name === 'a.txt' ? 'a.txt' : 'restore.json.kept', 'restore.json'].sort(),
      );
      const manifest = JSON.parse(await readFile(join(slot, 'restore.json'), 'utf8')) as Record<string, string>;
      expect(manifest['workspacePath']).toBe(name);
      expect(manifest['action']).toBe('backup');
    }
  });

  it('keeps bytes the caller read as a whole copy beside its restore.json, with the file’s permissions', async () => {
    const { sandbox, backups } = await workspaceWith({ 'a.sh': 'echo held' });
    await chmod(join(sandbox.workspaceRoot, 'a.sh'), 0o750);
    const path = await sandbox.resolve('a.sh', 'read');
    if (!path.ok) throw new Error(path.error.message);
    const kept = await createRecoveryStore(backups, 'backup').keepBytes(sandbox, path.value, Buffer.from('echo held'));
    if (!kept.ok) throw new Error(kept.error.message);
    expect(await readFile(kept.value, 'utf8')).toBe('echo held');
    expect((await stat(kept.value)).mode & 0o777).toBe(0o750);
    expect((await readdir(join(kept.value, '..'))).sort()).toEqual(['a.sh', 'restore.json']);
  });

  it('leaves no slot when the copy fails', async () => {
    const { sandbox, backups } = await workspaceWith({ 'a.txt': 'alpha' });
    const path = await sandbox.resolve('a.txt', 'read');
    if (!path.ok) throw new Error(path.error.message);
    const refusing = { ...sandbox, copyOut: () => err<void>('permission_denied', 'refused') };
    const kept = await createRecoveryStore(backups, 'backup').keepCopy(refusing, path.value);
    expect(kept.ok).toBe(false);
    expect(await slotsOf(backups)).toEqual([]);
  });
});

/** Started, left to work a while, then SIGKILLed. */
const killMidCopy = useKillableChild('backup-copier.child.ts', 'copyForever');

describe('keepCopy under SIGKILL (issue 33: one run in five left a torn backup)', () => {
  it('leaves whole backups beside their restore.json, or slots the next start sweeps', async () => {
    // 16 MB of noise: a copy takes long enough for kills to land inside it, and any tear shows.
    const original = randomBytes(16 * 1024 * 1024);
    const { workspace, backups } = await workspaceWith({ 'big.bin': original });
    let whole = 0;
    let swept = 0;
    for (const ms of [3, 41, 17, 88, 9, 130, 56, 24]) {
      await killMidCopy([workspace, backups, 'big.bin'], ms);
      const left = await slotsOf(backups);
      createRecoveryStore(backups, 'backup'); // the next start
      const kept = await slotsOf(backups);
      swept += left.length - kept.length;
      for (const slot of kept) {
        expect((await readdir(join(backups, slot))).sort()).toEqual(['big.bin', 'restore.json']);
        expect((await readFile(join(backups, slot, 'big.bin'))).equals(original), `${slot} is torn`).toBe(true);
        whole += 1;
      }
      // The checked backups go, so eight runs of 16 MB copies stay small on disk.
      await rm(backups, { recursive: true, force: true });
    }
    // The kills did land inside copies, and the copier did finish some.
    expect(swept).toBeGreaterThan(0);
    expect(whole).toBeGreaterThan(0);
  }, 120_000);
});
