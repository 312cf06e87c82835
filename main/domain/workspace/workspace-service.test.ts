import { mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract';
import type { WorkspaceChanges } from '../../../shared/ipc/workspace';
import { createStderrLogger } from '../../platform/logging/logger';
import { createEventHub } from '../../platform/ipc/event-hub';
import { openSettingsStore } from '../../platform/storage/settings-store';
import { useTempDirs } from '../../test-support/temp-dir';
import { createWorkspaceService } from './workspace-service';
import type { WorkspaceHandlers, WorkspaceService } from './workspace-service';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';

const tempDir = useTempDirs();
const services: WorkspaceService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

const ctx = { transport: 'direct', clientId: 'test' } as const;

async function start() {
  const base = await realpath(await tempDir('familiar-watch-'));
  const home = join(base, 'home');
  const personaDir = join(home, 'workspace');
  const root = join(base, 'project');
  await mkdir(join(personaDir, 'memory'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(personaDir, 'SOUL.md'), 'persona');
  const logger = createStderrLogger('test', () => undefined);
  const settings = await openSettingsStore(join(home, 'settings.json'), logger);
  const events = createEventHub((error) => {
    throw error;
  });
  const received: { name: EventName; payload: unknown }[] = [];
  events.subscribe((name, payload) => received.push({ name, payload }));
  const service = await createWorkspaceService({
    root,
    personaDir,
    home,
    settings,
    anchors: createAnchorRoots(),
    events,
    logger,
    batchMs: 30,
  });
  services.push(service);

  /** Every workspace.changed batch merged, once `done` holds for them (or after 3 s, failing). */
  const changesUntil = async (done: (all: WorkspaceChanges[]) => boolean): Promise<WorkspaceChanges[]> => {
    const deadline = Date.now() + 3000;
    for (;;) {
      const batches = received
        .filter((event) => event.name === 'workspace.changed')
        .map((event) => event.payload as EventPayload<'workspace.changed'>);
      if (done(batches)) return batches;
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(batches)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  function call(name: 'workspace.listDir', input: { path: string }): ReturnType<WorkspaceHandlers['workspace.listDir']>;
  function call(
    name: 'workspace.readFile',
    input: { path: string },
  ): ReturnType<WorkspaceHandlers['workspace.readFile']>;
  function call(name: 'workspace.listDir' | 'workspace.readFile', input: { path: string }) {
    return name === 'workspace.listDir'
      ? service.handlers['workspace.listDir'](input, ctx)
      : service.handlers['workspace.readFile'](input, ctx);
  }
  return { base, home, personaDir, root, settings, service, received, changesUntil, call };
}

const addedPaths = (batches: WorkspaceChanges[]) => batches.flatMap((batch) => batch.added.map((entry) => entry.path));
const removedPaths = (batches: WorkspaceChanges[]) => batches.flatMap((batch) => batch.removed);

describe('workspace service: live changes', () => {
  it('reports a file created by an outside program in a listed folder, with its entry', async () => {
    const { root, call, changesUntil } = await start();
    expect(await call('workspace.listDir', { path: 'src' })).toMatchObject({ ok: true, value: { entries: [] } });
    await writeFile(join(root, 'src', 'new.ts'), 'export {};\n');
    const batches = await changesUntil((all) => addedPaths(all).includes('src/new.ts'));
    expect(batches[0]).toMatchObject({
      root,
      added: [{ name: 'new.ts', path: 'src/new.ts', type: 'file', size: 11, ignored: false, persona: false }],
    });
  });

  it('reports a rename as a removal and an addition, and a deleted folder as removed', async () => {
    const { root, call, changesUntil } = await start();
    await writeFile(join(root, 'a.txt'), 'a');
    await mkdir(join(root, 'old'));
    await call('workspace.listDir', { path: '' });
    await call('workspace.listDir', { path: 'old' });
    await rename(join(root, 'a.txt'), join(root, 'b.txt'));
    await rm(join(root, 'old'), { recursive: true });
    const batches = await changesUntil(
      (all) =>
        removedPaths(all).includes('a.txt') && removedPaths(all).includes('old') && addedPaths(all).includes('b.txt'),
    );
    expect(addedPaths(batches)).toEqual(['b.txt']);
  });

  it('says nothing about folders the tree never listed', async () => {
    const { root, call, changesUntil } = await start();
    await call('workspace.listDir', { path: '' });
    await writeFile(join(root, 'src', 'unseen.ts'), '');
    await writeFile(join(root, 'seen.ts'), '');
    const batches = await changesUntil((all) => addedPaths(all).includes('seen.ts'));
    expect(addedPaths(batches)).toEqual(['seen.ts']);
  });

  it('reports persona files from the Familiar home and ignores the project’s shadowed ones', async () => {
    const { root, personaDir, call, changesUntil } = await start();
    await call('workspace.listDir', { path: '' });
    await call('workspace.listDir', { path: 'memory' });
    await writeFile(join(root, 'SOUL.md'), 'shadowed');
    await writeFile(join(personaDir, 'SOUL.md'), 'persona, edited');
    await writeFile(join(personaDir, 'memory', 'today.md'), 'note');
    await writeFile(join(root, 'marker.txt'), '');
    const batches = await changesUntil(
      (all) =>
        addedPaths(all).includes('marker.txt') &&
        addedPaths(all).includes('memory/today.md') &&
        all.some((batch) => batch.changed.some((entry) => entry.path === 'SOUL.md')),
    );
    const soul = batches.flatMap((batch) => batch.changed).find((entry) => entry.path === 'SOUL.md');
    expect(soul).toMatchObject({ persona: true, size: 'persona, edited'.length });
    expect(batches.flatMap((batch) => batch.added).filter((entry) => entry.path === 'SOUL.md')).toEqual([]);
  });

  it('asks the tree to list a folder again when its .gitignore changes', async () => {
    const { root, call, changesUntil } = await start();
    await writeFile(join(root, 'debug.log'), '');
    await call('workspace.listDir', { path: '' });
    await writeFile(join(root, '.gitignore'), '*.log\n');
    await changesUntil((all) => all.some((batch) => batch.reload.includes('')));
    const listing = await call('workspace.listDir', { path: '' });
    expect(listing.ok && listing.value.entries.find((entry) => entry.name === 'debug.log')).toMatchObject({
      ignored: true,
    });
  });
});

describe('workspace service: reading and opening', () => {
  it('reads text and refuses binary, oversized, non-UTF-8 and non-files with typed errors', async () => {
    const { root, call } = await start();
    await writeFile(join(root, 'hello.md'), '\uFEFF# Hello\n');
    await writeFile(join(root, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    await writeFile(join(root, 'big.txt'), 'x'.repeat(2 * 1024 * 1024 + 1));
    expect(await call('workspace.readFile', { path: 'hello.md' })).toEqual({
      ok: true,
      value: { path: 'hello.md', text: '# Hello\n', size: 11 },
    });
    expect(await call('workspace.readFile', { path: 'SOUL.md' })).toMatchObject({
      ok: true,
      value: { text: 'persona' },
    });
    const codes = await Promise.all(
      ['image.bin', 'latin1.txt', 'big.txt', 'src', 'missing.txt', '../etc/passwd'].map(async (path) => {
        const result = await call('workspace.readFile', { path });
        return result.ok ? 'ok' : result.error.code;
      }),
    );
    expect(codes).toEqual([
      'binary_file',
      'encoding_error',
      'file_too_large',
      'not_a_file',
      'file_not_found',
      'invalid_path',
    ]);
  });

  it('opens another folder, remembers it, announces it and watches only the new one', async () => {
    const { base, home, root, service, settings, received, call, changesUntil } = await start();
    const other = join(base, 'other');
    await mkdir(other);
    await call('workspace.listDir', { path: '' });
    expect(await service.handlers['workspace.open']({ path: other }, ctx)).toEqual({
      ok: true,
      value: { path: other },
    });
    expect(service.current()).toBe(other);
    expect(settings.get().workspace.path).toBe(other);
    expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8'))).toMatchObject({
      workspace: { path: other },
    });
    expect(received.filter((event) => event.name === 'workspace.opened')).toEqual([
      { name: 'workspace.opened', payload: { path: other } },
    ]);
    await call('workspace.listDir', { path: '' });
    await writeFile(join(root, 'old-folder.txt'), '');
    await writeFile(join(other, 'new-folder.txt'), '');
    const batches = await changesUntil((all) => addedPaths(all).includes('new-folder.txt'));
    expect(batches.map((batch) => batch.root)).toEqual([other]);
    expect(addedPaths(batches)).toEqual(['new-folder.txt']);
  });

  it('refuses relative paths, files, missing folders and Familiar’s own data folder', async () => {
    const { base, home, personaDir, root, service, settings } = await start();
    await writeFile(join(base, 'file.txt'), '');
    const open = async (path: string) => {
      const result = await service.open(path);
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await open('relative/folder')).toBe('invalid_path');
    expect(await open(join(base, 'file.txt'))).toBe('not_a_directory');
    expect(await open(join(base, 'missing'))).toBe('file_not_found');
    expect(await open(home)).toBe('permission_denied');
    expect(service.current()).toBe(root);
    // The default workspace inside the home is fine, and is remembered as "the default".
    expect(await open(personaDir)).toBe('ok');
    expect(service.current()).toBe(personaDir);
    expect(settings.get().workspace.path).toBeNull();
  });
});
