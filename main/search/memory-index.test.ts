import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
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
    const hits = await new MemoryIndex(dir).search('tea', 6, now);
    expect(hits[0]).toMatchObject({ file: 'USER.md', startLine: 1, endLine: 3, heading: 'User' });
    expect(hits[0]?.snippet).toContain('green tea');
  });

  it('prefers a recent daily note over an old one with the same words', async () => {
    const dir = await personaDir();
    await writeFile(join(dir, 'memory', '2026-11-20.md'), 'Dentist appointment moved to Thursday.\n');
    await writeFile(join(dir, 'memory', '2026-05-01.md'), 'Dentist appointment moved to Thursday.\n');
    const hits = await new MemoryIndex(dir).search('dentist appointment', 6, now);
    expect(hits.map((hit) => hit.file)).toEqual(['memory/2026-11-20.md', 'memory/2026-05-01.md']);
  });

  it('follows edits and deletions between searches', async () => {
    const dir = await personaDir();
    const index = new MemoryIndex(dir);
    expect(await index.search('basil', 6, now)).toHaveLength(1);
    await writeFile(join(dir, 'MEMORY.md'), '# Memory\n\nNo herbs any more; and a longer text to change the size.\n');
    expect(await index.search('basil', 6, now)).toEqual([]);
    await writeFile(join(dir, 'memory', '2026-11-22.md'), 'Bought basil seeds.\n');
    expect((await index.search('basil', 6, now)).map((hit) => hit.file)).toEqual(['memory/2026-11-22.md']);
    await rm(join(dir, 'memory', '2026-11-22.md'));
    expect(await index.search('basil', 6, now)).toEqual([]);
  });
});
