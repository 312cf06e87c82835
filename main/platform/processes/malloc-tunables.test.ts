import { describe, expect, it } from 'vitest';
import { mallocTunables, relaunchArguments, relaunchEnvironment } from './malloc-tunables';

describe('the relaunch under glibc allocator tunables', () => {
  const env = { PATH: '/usr/bin', HOME: '/home/a' };

  it('adds the tunables to the environment it was started with', () => {
    expect(relaunchEnvironment({ env, glibc: () => '2.36', canExec: true })).toEqual({ ...env, ...mallocTunables });
    expect(mallocTunables).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
  });

  it('stays as it is without glibc, without process.execve, or with MALLOC_ARENA_MAX set (by a person, or the relaunch)', () => {
    expect(relaunchEnvironment({ env, glibc: () => undefined, canExec: true })).toBeUndefined();
    expect(relaunchEnvironment({ env, glibc: () => '2.36', canExec: false })).toBeUndefined();
    expect(
      relaunchEnvironment({ env: { ...env, MALLOC_ARENA_MAX: '8' }, glibc: () => '2.36', canExec: true }),
    ).toBeUndefined();
  });

  it("starts again with the start flags before the process's own flags, then its script and arguments", () => {
    expect(
      relaunchArguments('/bin/node', ['--min-semi-space-size=16'], ['--inspect'], ['/bin/node', 'mcp.js', '--http']),
    ).toEqual(['/bin/node', '--min-semi-space-size=16', '--inspect', 'mcp.js', '--http']);
  });
});
