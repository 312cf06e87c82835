import { existsSync, mkdtempSync, mkdirSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSeatbelt } from './confinement';
import { launchFor } from './confined-launch';
import type { LaunchRequest } from './launch-types';
import { rulesFor } from './process-rules';
import { canonicalPath, seatbeltLaunch } from './seatbelt-launch';
import type { SeatbeltHost } from './seatbelt-launch';
import { SANDBOX_EXEC, SeatbeltPathError } from './seatbelt-profile';

/**
 * What a confined process is started as on macOS: sandbox-exec's argv, its environment and its
 * private temporary folder, and the probe. Checked on Linux with injected hosts and a real temp
 * folder; NOT YET RUN ON A MAC (SECURITY.md).
 */
const home = '/Users/ada';
const workspace = `${home}/code/app`;
const folders = {
  workspaceRoot: workspace,
  personaDir: `${home}/Familiar`,
  familiarHome: `${home}/Library/Application Support/Familiar`,
  userHome: home,
  memoryOn: true,
};

function fakeHost(): SeatbeltHost & { made: string[]; removed: string[] } {
  const made: string[] = [];
  const removed: string[] = [];
  return {
    made,
    removed,
    // /var is a link to /private/var on macOS: Seatbelt sees the resolved path.
    canonical: (path) => path.replace(/^\/var\//, '/private/var/'),
    exists: (path) => (path === workspace || path === `${workspace}/.git` ? 'dir' : undefined),
    makeTempDir: () => {
      const dir = `/private/var/folders/xy/T/familiar-proc-${made.length}`;
      made.push(dir);
      return dir;
    },
    removeTempDir: (dir) => void removed.push(dir),
  };
}

const request = (overrides: Partial<LaunchRequest> = {}): LaunchRequest => ({
  file: 'npm',
  args: ['test', '--', '$(rm -rf ~)'],
  shell: false,
  cwd: workspace,
  environment: { pass: ['PATH'], set: { CI: '1' } },
  confinement: rulesFor('command', folders),
  ...overrides,
});

describe('seatbeltLaunch', () => {
  it('runs sandbox-exec with the profile inline and the program, untouched, after --', () => {
    const host = fakeHost();
    const launch = seatbeltLaunch(request(), SANDBOX_EXEC, host);
    expect(launch.file).toBe('/usr/bin/sandbox-exec');
    expect(launch.shell).toBe(false);
    expect(launch.confined).toBe(true);
    expect(launch.cwd).toBe(workspace);
    expect(launch.args[0]).toBe('-p');
    expect(launch.args[1]).toMatch(/^\(version 1\)\n\(deny default\)\n/);
    expect(launch.args.slice(2)).toEqual(['--', 'npm', 'test', '--', '$(rm -rf ~)']);
  });

  it('a shell command line runs as /bin/sh -c inside', () => {
    const launch = seatbeltLaunch(
      request({ file: 'echo hi > out.txt', args: [], shell: true }),
      SANDBOX_EXEC,
      fakeHost(),
    );
    expect(launch.args.slice(2)).toEqual(['--', '/bin/sh', '-c', 'echo hi > out.txt']);
  });

  it('gives the process a private temp folder, writable in the profile, removed once on release', () => {
    const host = fakeHost();
    const launch = seatbeltLaunch(request(), SANDBOX_EXEC, host);
    const temp = host.made[0]!;
    expect(launch.environment.set).toMatchObject({ CI: '1', TMPDIR: temp, TMP: temp, TEMP: temp });
    expect(launch.environment.set).not.toHaveProperty('HOME');
    expect(launch.args[1]).toContain(`(allow file-write* (subpath "${workspace}") (subpath "${temp}"))`);
    launch.release();
    launch.release();
    expect(host.removed).toEqual([temp]);
  });

  it('matches the resolved paths Seatbelt sees (/var → /private/var)', () => {
    const launch = seatbeltLaunch(
      request({ confinement: { ...rulesFor('command', folders), readable: ['/var/skills'], writable: ['/var/ws'] } }),
      SANDBOX_EXEC,
      fakeHost(),
    );
    expect(launch.args[1]).toContain('(subpath "/private/var/skills")');
    expect(launch.args[1]).not.toContain('(subpath "/var/skills")');
    expect(launch.args[1]).toContain('(allow file-write* (subpath "/private/var/ws")');
  });

  it('a language server’s scratch home is an empty folder of its own: HOME points there', () => {
    const host = fakeHost();
    const launch = seatbeltLaunch(request({ confinement: rulesFor('language-server', folders) }), SANDBOX_EXEC, host);
    expect(launch.environment.set?.['HOME']).toBe(`${host.made[0]}/home`);
    // The real home stays hidden and unwritable.
    expect(launch.args[1]).toContain(`(deny file-read* (subpath "${home}")`);
    expect(launch.args[1]).not.toContain(`(allow file-write* (subpath "${home}")`);
  });

  it('with a loopback bridge: its proxy variables, and its port the only network in the profile', () => {
    const launch = seatbeltLaunch(
      request({
        bridge: {
          loopbackPort: 50123,
          bwrapMounts: [],
          wrap: (program) => [...program],
          environment: { HTTPS_PROXY: 'http://127.0.0.1:50123', NO_PROXY: '' },
          decisions: () => [],
          close: () => Promise.resolve(),
        },
      }),
      SANDBOX_EXEC,
      fakeHost(),
    );
    expect(launch.environment.set).toMatchObject({ HTTPS_PROXY: 'http://127.0.0.1:50123', NO_PROXY: '' });
    expect(launch.args[1]).toContain('(allow network-outbound (remote ip "localhost:50123"))');
  });

  it('a path the profile cannot hold stops the start and removes the temp folder', () => {
    const host = fakeHost();
    const odd = request({ confinement: { ...rulesFor('command', folders), readable: ['/Users/ada/odd\nname'] } });
    expect(() => seatbeltLaunch(odd, SANDBOX_EXEC, host)).toThrow(SeatbeltPathError);
    expect(host.removed).toEqual(host.made);
  });
});

describe('launchFor with the Seatbelt mode', () => {
  it('starts sandbox-exec, with a real private temp folder (an empty home inside) that goes on release', () => {
    const launch = launchFor(request(), { confined: true, tool: 'seatbelt', path: SANDBOX_EXEC });
    expect(launch.file).toBe(SANDBOX_EXEC);
    expect(launch.args.slice(2, 4)).toEqual(['--', 'npm']);
    const temp = launch.environment.set?.['TMPDIR'];
    expect(temp).toBeDefined();
    expect(statSync(temp!).mode & 0o777).toBe(0o700);
    expect(statSync(join(temp!, 'home')).isDirectory()).toBe(true);
    expect(launch.args[1]).toContain(`(subpath "${temp}")`);
    launch.release();
    expect(existsSync(temp!)).toBe(false);
  });

  it('unconfined or without rules: the program itself, as before', () => {
    const plain = launchFor(request(), { confined: false, reason: 'r', fix: 'f' });
    expect([plain.file, ...plain.args]).toEqual(['npm', 'test', '--', '$(rm -rf ~)']);
    expect(plain.confined).toBe(false);
    const { confinement: _rules, ...unruled } = request();
    const noRules = launchFor(unruled, { confined: true, tool: 'seatbelt', path: SANDBOX_EXEC });
    expect(noRules.file).toBe('npm');
  });
});

describe('canonicalPath', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves links, and the deepest existing folder of a name that is absent', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'seatbelt-canon-')));
    dirs.push(root);
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(canonicalPath(join(root, 'link'))).toBe(join(root, 'real'));
    expect(canonicalPath(join(root, 'link', 'absent', 'SOUL.md'))).toBe(join(root, 'real', 'absent', 'SOUL.md'));
  });
});

describe('probeSeatbelt', () => {
  it('runs true under /usr/bin/sandbox-exec with a deny-default profile that hides the home', () => {
    const runs: { file: string; args: string[] }[] = [];
    const mode = probeSeatbelt((file, args) => {
      runs.push({ file, args });
      return { status: 0 };
    }, home);
    expect(mode).toEqual({ confined: true, tool: 'seatbelt', path: '/usr/bin/sandbox-exec' });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.file).toBe('/usr/bin/sandbox-exec');
    expect(runs[0]!.args[0]).toBe('-p');
    expect(runs[0]!.args[1]).toContain('(deny default)');
    // Every kind of rule, so one this macOS cannot read fails here, once.
    for (const line of [
      `(deny file-read* (subpath "${home}"))`,
      `(allow file-read-metadata (literal "${home}"))`,
      '(allow file-write* (subpath "/private/tmp/familiar-probe") (subpath "/private/tmp/familiar-probe-tmp"))',
      '(deny file-write* (subpath "/private/tmp/familiar-probe/.git/hooks"))',
      '(deny file-write-unlink (literal "/private/tmp/familiar-probe/.git"))',
      '(deny file-read* file-write* (subpath "/private/tmp/familiar-probe/MEMORY.md"))',
      '(allow network-outbound (remote ip "localhost:9"))',
    ]) {
      expect(runs[0]!.args[1]!.split('\n')).toContain(line);
    }
    expect(runs[0]!.args.slice(2)).toEqual(['--', '/usr/bin/true']);
  });

  it('reports unconfined with the reason when sandbox-exec refuses or is missing', () => {
    const refused = probeSeatbelt(
      () => ({ status: 65, stderr: 'sandbox-exec: sandbox_apply: Operation not permitted\n' }),
      home,
    );
    expect(refused).toMatchObject({ confined: false });
    expect(refused.confined === false && refused.reason).toContain('sandbox_apply: Operation not permitted');
    const missing = probeSeatbelt(
      () => ({ status: null, error: new Error('spawnSync /usr/bin/sandbox-exec ENOENT') }),
      home,
    );
    expect(missing.confined === false && missing.reason).toContain('ENOENT');
  });
});
