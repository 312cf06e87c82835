import { mkdir, writeFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { openAppFile, readAppFile, readAppTextSync } from './app-files';

const tempDir = useTempDirs();

describe('app files (shipped, read-only)', () => {
  it('opens regular files only, and reads them whole or streamed', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.html'), '<!doctype html>');
    await mkdir(join(dir, 'assets'));
    const page = await openAppFile(join(dir, 'index.html'));
    if (page === null) throw new Error('index.html was not opened');
    expect(page.size).toBe(15);
    expect(await text(page.stream())).toBe('<!doctype html>');
    expect(await openAppFile(join(dir, 'assets'))).toBeNull();
    expect(await openAppFile(join(dir, 'missing.js'))).toBeNull();
    expect((await readAppFile(join(dir, 'index.html'))).toString()).toBe('<!doctype html>');
    await expect(readAppFile(join(dir, 'missing.js'))).rejects.toThrow();
  });

  it('reads a small resource at start-up, or nothing when it is not there', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'package-type'), 'deb\n');
    expect(readAppTextSync(join(dir, 'package-type'))).toBe('deb\n');
    expect(readAppTextSync(join(dir, 'none'))).toBeUndefined();
  });
});
