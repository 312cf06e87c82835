import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTempDirs } from '../../test-support/temp-dir';
import { readJsonFile, readJsonFileSync, writeJsonFile, writeJsonFileSync } from './json-file';

const tempDir = useTempDirs();
const schema = z.object({ name: z.string(), count: z.number().int() });

describe('JSON files in the data folder', () => {
  it('round-trips a valid value, pretty, private, with no temp file left', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.json');
    await writeJsonFile(file, schema, { name: 'x', count: 2 });
    expect(await readJsonFile(file, schema)).toEqual({ state: 'valid', value: { name: 'x', count: 2 } });
    expect(await readFile(file, 'utf8')).toBe('{\n  "name": "x",\n  "count": 2\n}\n');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    writeJsonFileSync(join(dir, 'b.json'), schema, { name: 'y', count: 3 });
    expect(readJsonFileSync(join(dir, 'b.json'), schema)).toEqual({ state: 'valid', value: { name: 'y', count: 3 } });
    expect((await readdir(dir)).sort()).toEqual(['a.json', 'b.json']);
  });

  it('tells a missing or unreadable file from broken JSON and from a value of the wrong shape', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.json');
    await mkdir(join(dir, 'folder.json'));
    for (const read of [readJsonFile, readJsonFileSync]) {
      expect(await read(join(dir, 'none.json'), schema)).toEqual({ state: 'absent' });
      expect(await read(join(dir, 'folder.json'), schema)).toEqual({ state: 'absent' });
      await writeFile(file, '{"name": "x",');
      expect(await read(file, schema)).toEqual({ state: 'not-json' });
      await writeFile(file, '{"name": "x", "count": 1.5}');
      const invalid = await read(file, schema);
      expect(invalid.state).toBe('invalid');
      expect(invalid.state === 'invalid' && invalid.error.issues[0]?.path).toEqual(['count']);
    }
  });

  it('refuses to write what it could not read back, and leaves the old file alone', async () => {
    const file = join(await tempDir(), 'a.json');
    await writeJsonFile(file, schema, { name: 'old', count: 1 });
    await expect(writeJsonFile(file, schema, { name: 'new', count: -0.5 })).rejects.toThrow();
    expect(() => writeJsonFileSync(file, schema, { name: 'new', count: 0.5 })).toThrow();
    expect(await readJsonFile(file, schema)).toEqual({ state: 'valid', value: { name: 'old', count: 1 } });
  });
});
