import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { dataFileFacts, keepInvalidAside, moveDataFile, restrictFileMode } from './data-files';
import { ensureFolder, listFolder } from './folders';

const tempDir = useTempDirs();

describe('files and folders of the data folder', () => {
  it('keeps a broken file aside under a dated name instead of losing it', async () => {
    const dir = await tempDir();
    const file = join(dir, 'policy.json');
    await writeFile(file, 'hand edit');
    const aside = await keepInvalidAside(file);
    expect(aside).toMatch(/policy\.json\.invalid-\d+$/);
    expect(await readdir(dir)).toEqual([aside.slice(dir.length + 1)]);
    expect(await readFile(aside, 'utf8')).toBe('hand edit');
  });

  it.skipIf(process.platform === 'win32')('narrows a file mode that a restore widened', async () => {
    const file = join(await tempDir(), 'secrets.json');
    await writeFile(file, '{}');
    await chmod(file, 0o644);
    await restrictFileMode(file, 0o600);
    expect((await dataFileFacts(file)).mode).toBe(0o600);
  });

  it('makes private folders, lists them (none when missing) and moves files between them', async () => {
    const dir = await tempDir();
    const trash = join(dir, 'trash', 'conversations');
    expect(await listFolder(trash)).toEqual([]);
    await ensureFolder(trash);
    if (process.platform !== 'win32') expect((await dataFileFacts(trash)).mode).toBe(0o700);
    await writeFile(join(dir, 'c.jsonl'), 'x\n');
    await moveDataFile(join(dir, 'c.jsonl'), join(trash, 'c.jsonl'));
    expect(await listFolder(trash)).toEqual(['c.jsonl']);
    expect(await dataFileFacts(join(trash, 'c.jsonl'))).toMatchObject({ kind: 'file', size: 2 });
    await expect(moveDataFile(join(dir, 'c.jsonl'), join(trash, 'd.jsonl'))).rejects.toThrow();
    await writeFile(join(dir, 'plain'), '');
    await expect(listFolder(join(dir, 'plain'))).rejects.toThrow();
    await mkdir(join(dir, 'sub'));
    expect((await dataFileFacts(join(dir, 'sub'))).kind).toBe('directory');
  });
});
