import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../main/test-support/temp-dir';
import { checksumFileName, releaseAssets, sha256File, writeChecksums } from './checksums';

const tempDir = useTempDirs();

describe('release checksums', () => {
  it('are SHA-256 (the FIPS 180-2 test vectors)', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'abc'), 'abc');
    await writeFile(join(dir, 'empty'), '');
    expect(await sha256File(join(dir, 'abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256File(join(dir, 'empty'))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('cover the installers, the updater zips, blockmaps and feeds, and nothing else', () => {
    const names = [
      'Familiar-0.1.0-linux-x86_64.AppImage',
      'familiar_0.1.0_amd64.deb',
      'Familiar-0.1.0-linux-x64.tar.gz',
      'Familiar-0.1.0-mac-arm64.dmg',
      'Familiar-0.1.0-mac-arm64.zip',
      'Familiar-0.1.0-mac-arm64.zip.blockmap',
      'Familiar-Setup-0.1.0-unsigned.exe',
      'latest.yml',
      'latest-mac.yml',
      'latest-linux.yml',
      'builder-debug.yml',
      'builder-effective-config.yaml',
      'linux-unpacked',
      checksumFileName,
    ];
    expect(releaseAssets(names)).toEqual([
      'Familiar-0.1.0-linux-x64.tar.gz',
      'Familiar-0.1.0-linux-x86_64.AppImage',
      'Familiar-0.1.0-mac-arm64.dmg',
      'Familiar-0.1.0-mac-arm64.zip',
      'Familiar-0.1.0-mac-arm64.zip.blockmap',
      'Familiar-Setup-0.1.0-unsigned.exe',
      'familiar_0.1.0_amd64.deb',
      'latest-linux.yml',
      'latest-mac.yml',
      'latest.yml',
    ]);
  });

  it('write SHA256SUMS.txt in the format sha256sum -c checks', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'Familiar-Setup-0.1.0.exe'), 'installer bytes');
    await writeFile(join(dir, 'latest.yml'), 'version: 0.1.0\n');
    await writeFile(join(dir, 'builder-debug.yml'), 'not shipped\n');
    expect(await writeChecksums(dir)).toEqual(['Familiar-Setup-0.1.0.exe', 'latest.yml']);
    const text = await readFile(join(dir, checksumFileName), 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64} {2}Familiar-Setup-0\.1\.0\.exe\n[0-9a-f]{64} {2}latest\.yml\n$/);
    if (process.platform === 'linux') {
      // The tool users run: every line checks, and a changed byte is caught.
      expect(execFileSync('sha256sum', ['-c', checksumFileName], { cwd: dir, encoding: 'utf8' })).toContain(
        'latest.yml: OK',
      );
      await writeFile(join(dir, 'latest.yml'), 'version: 6.6.6\n');
      expect(() => execFileSync('sha256sum', ['-c', checksumFileName], { cwd: dir, stdio: 'pipe' })).toThrow();
    }
  });

  it('refuse an empty folder rather than publish an empty checksum file', async () => {
    await expect(writeChecksums(await tempDir())).rejects.toThrow(/No release assets/);
  });
});
