import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledRipgrepPath, locateRipgrep } from './ripgrep-locate';

/** Which ripgrep search_in_code runs: the packaged app's own first, then rg on PATH, else none. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rg-locate-'));
  dirs.push(dir);
  return dir;
}

/** An executable file named `name` in a new folder (never run: only found). */
function program(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

describe('locateRipgrep', () => {
  it('prefers the bundled binary in the resources folder over rg on PATH', () => {
    const resources = folder();
    const bundled = program(join(resources, 'ripgrep'), 'rg');
    const onPath = program(folder(), 'rg');
    const env = { PATH: [join(onPath, '..')].join(delimiter) };
    expect(locateRipgrep({ resourcesDir: resources, env, platform: 'linux' })).toEqual({
      path: bundled,
      source: 'bundled',
    });
  });

  it('falls back to PATH when the package carries none, or no resources folder is given', () => {
    const onPath = program(folder(), 'rg');
    const env = { PATH: join(onPath, '..') };
    expect(locateRipgrep({ resourcesDir: folder(), env, platform: 'linux' })).toEqual({ path: onPath, source: 'path' });
    expect(locateRipgrep({ env, platform: 'linux' })).toEqual({ path: onPath, source: 'path' });
  });

  it('a bundled file that is not executable is passed over', () => {
    const resources = folder();
    const bundled = program(join(resources, 'ripgrep'), 'rg');
    chmodSync(bundled, 0o644);
    expect(locateRipgrep({ resourcesDir: resources, env: { PATH: '' }, platform: 'linux' })).toBeUndefined();
  });

  it('none anywhere: undefined (the JS engine searches); a relative PATH entry is never used', () => {
    const dir = folder();
    program(dir, 'rg');
    expect(locateRipgrep({ env: { PATH: ['.', ''].join(delimiter) }, platform: 'linux' })).toBeUndefined();
  });

  it('Windows: rg.exe in the resources folder', () => {
    expect(bundledRipgrepPath('/r', 'win32')).toBe(join('/r', 'ripgrep', 'rg.exe'));
    expect(bundledRipgrepPath('/r', 'darwin')).toBe(join('/r', 'ripgrep', 'rg'));
    const seen: string[] = [];
    const found = locateRipgrep({
      resourcesDir: '/r',
      env: { PATH: '' },
      platform: 'win32',
      isExecutable: (path) => (seen.push(path), true),
    });
    expect(found).toEqual({ path: join('/r', 'ripgrep', 'rg.exe'), source: 'bundled' });
    expect(seen).toEqual([join('/r', 'ripgrep', 'rg.exe')]);
  });
});
