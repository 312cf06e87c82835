import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAnchorRoots } from '../../platform/disk/anchor-roots';
import { createWorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { useTempDirs } from '../../test-support/temp-dir';
import { MemoryIndex, recencyWeight } from './memory-index';

const tempDir = useTempDirs();
const now = new Date('2026-11-23T00:00:00Z');

async function personaDir() {
  const dir = await tempDir();
  await mkdir(join(dir, 'memory'));
  await writeFile(join(dir, 'MEMORY.md'), '# Memory\n\nThe garden project uses tomatoes and basil.\n');
  await writeFile(join(dir, 'USER.md'), '# User\n\nAda prefers green tea in the morning.\n');
  return dir;
}

/** The persona folder as the memory tools see it: through the sandbox. */
const sandboxOf = (dir: string) =>
  createWorkspaceSandbox({ workspaceRoot: dir, personaDir: dir, roots: createAnchorRoots(), isConcealed: () => false });

describe('recencyWeight', () => {
  it('halves a dated note every 30 days and never decays MEMORY.md or USER.md', () => {
    expect(recencyWeight('memory/2026-11-23.md', now)).toBeCloseTo(1, 1);
    expect(recencyWeight('memory/2026-10-24.md', now)).toBeCloseTo(0.5, 2);
    expect(recencyWeight('memory/2026-09-24.md', now)).toBeCloseTo(0.25, 2);
    expect(recencyWeight('MEMORY.md', now)).toBe(1);
    expect(recencyWeight('USER.md', now)).toBe(1);
  });
});

describe('MemoryIndex', () => {
  it('ranks by relevance across memory files and returns the matching lines', async () => {
    const dir = await personaDir();
    const hits = await new MemoryIndex().search(sandboxOf(dir), 'tea', 6, now);
    expect(hits[0]).toMatchObject({ file: 'USER.md', startLine: 1, endLine: 3, heading: 'User' });
    expect(hits[0]?.snippet).toContain('green tea');
  });

  it('prefers a recent daily note over an old one with the same words', async () => {
    const dir = await personaDir();
    await writeFile(join(dir, 'memory', '2026-11-20.md'), 'Dentist appointment moved to Thursday.\n');
    await writeFile(join(dir, 'memory', '2026-05-01.md'), 'Dentist appointment moved to Thursday.\n');
    const hits = await new MemoryIndex().search(sandboxOf(dir), 'dentist appointment', 6, now);
    expect(hits.map((hit) => hit.file)).toEqual(['memory/2026-11-20.md', 'memory/2026-05-01.md']);
  });

  it('follows edits and deletions between searches', async () => {
    const dir = await personaDir();
    const index = new MemoryIndex();
    const sandbox = sandboxOf(dir);
    expect(await index.search(sandbox, 'basil', 6, now)).toHaveLength(1);
    await writeFile(join(dir, 'MEMORY.md'), '# Memory\n\nNo herbs any more; and a longer text to change the size.\n');
    expect(await index.search(sandbox, 'basil', 6, now)).toEqual([]);
    await writeFile(join(dir, 'memory', '2026-11-22.md'), 'Bought basil seeds.\n');
    expect((await index.search(sandbox, 'basil', 6, now)).map((hit) => hit.file)).toEqual(['memory/2026-11-22.md']);
    await rm(join(dir, 'memory', '2026-11-22.md'));
    expect(await index.search(sandbox, 'basil', 6, now)).toEqual([]);
  });

  it('never follows a symlink planted in memory/, and drops a hit whose file changed since it was indexed', async () => {
    const dir = await personaDir();
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.md'), 'The vault code is walrus.\n');
    const { symlink } = await import('node:fs/promises');
    await symlink(join(outside, 'secret.md'), join(dir, 'memory', '2026-11-21.md'));
    const index = new MemoryIndex();
    const sandbox = sandboxOf(dir);
    expect(await index.search(sandbox, 'walrus vault', 6, now)).toEqual([]);
    // Indexed as it is, then replaced by a link to the outside file before the next query's snippet read.
    await writeFile(join(dir, 'memory', '2026-11-22.md'), 'walrus notes\n');
    expect((await index.search(sandbox, 'walrus', 6, now)).map((hit) => hit.file)).toEqual(['memory/2026-11-22.md']);
  });
});
