import { describe, expect, it } from 'vitest';
import type { ConfinementRules } from './launch-types';
import { rulesFor } from './process-rules';
import type { HostFolders } from './process-rules';
import { SeatbeltPathError, sbplString, seatbeltArgs, seatbeltProfile } from './seatbelt-profile';

/**
 * The macOS translation of the process rules, checked as text: Seatbelt cannot run on Linux, so
 * these tests (and seatbelt-launch.test.ts) are all that verifies it until it runs on a Mac. Each
 * rule kind is asserted by the exact SBPL line it must produce, and by its place: in SBPL the last
 * matching rule wins, so a put-back must come after the deny it undoes.
 */
const home = '/Users/ada';
const familiarHome = `${home}/Library/Application Support/Familiar`;
const workspace = `${home}/code/app`;
const folders: HostFolders = {
  workspaceRoot: workspace,
  personaDir: `${familiarHome}/persona`,
  familiarHome,
  userHome: home,
  memoryOn: false,
};
const all = new Set([workspace, `${workspace}/.git`]);
const exists = (path: string) => (all.has(path) ? 'dir' : undefined);
const options = { exists, tempDir: '/private/var/folders/xy/T/familiar-proc-1' };
const rules = (kind: Parameters<typeof rulesFor>[0]): ConfinementRules => ({
  ...rulesFor(kind, folders),
  cwd: workspace,
});
const lines = (profile: string) => profile.split('\n');
const at = (profile: string, line: string) => {
  const index = lines(profile).indexOf(line);
  expect(index, `missing: ${line}`).toBeGreaterThanOrEqual(0);
  return index;
};

describe('sbplString', () => {
  it('escapes backslashes and quotes so a name cannot end the string or add a rule', () => {
    expect(sbplString('/a/b')).toBe('"/a/b"');
    expect(sbplString('/x/evil") (allow file-write* (subpath "/')).toBe(
      '"/x/evil\\") (allow file-write* (subpath \\"/"',
    );
    expect(sbplString('/x/back\\slash\\')).toBe('"/x/back\\\\slash\\\\"');
    expect(sbplString('/x/\\"')).toBe('"/x/\\\\\\""');
    expect(sbplString('/x/ünï ; (deny)')).toBe('"/x/ünï ; (deny)"');
  });

  it('refuses control characters rather than guess how SBPL reads them', () => {
    expect(() => sbplString('/x/line\nbreak')).toThrow(SeatbeltPathError);
    expect(() => sbplString('/x/nul\u0000')).toThrow(SeatbeltPathError);
    expect(() => sbplString('/x/del\u007f')).toThrow(SeatbeltPathError);
  });

  it('a hostile workspace name stays one literal in the profile', () => {
    const evil = `${home}/code/a") (allow file-write* (subpath "/") ;\\`;
    const profile = seatbeltProfile(
      { ...rulesFor('command', { ...folders, workspaceRoot: evil }), cwd: evil },
      options,
    );
    expect(profile).toContain(
      `(allow file-write* (subpath "${home}/code/a\\") (allow file-write* (subpath \\"/\\") ;\\\\")`,
    );
    // No line opens a write to the root: the only `(subpath "/")` text is inside the escaped literal.
    expect(lines(profile).filter((line) => line.startsWith('(allow file-write* (subpath "/")'))).toEqual([]);
    // Every line's quotes balance once escapes are taken out.
    for (const line of lines(profile)) {
      const bare = line.replace(/\\./g, '');
      expect((bare.match(/"/g) ?? []).length % 2, line).toBe(0);
    }
  });
});

describe('seatbeltProfile', () => {
  it('denies by default, and allows exec and fork (children inherit the profile)', () => {
    const profile = seatbeltProfile(rules('command'), options);
    expect(lines(profile).slice(0, 4)).toEqual([
      '(version 1)',
      '(deny default)',
      '(allow process-exec)',
      '(allow process-fork)',
    ]);
    expect(profile).not.toContain('(allow default)');
    expect(profile).not.toMatch(/\(allow network/);
    expect(profile).not.toContain('(allow sysctl-read)\n');
  });

  it('hides the user home and Familiar home for reading, after allowing the system', () => {
    const profile = seatbeltProfile(rules('command'), options);
    const system = at(profile, '(allow file-read*)');
    const hidden = at(profile, `(deny file-read* (subpath "${home}") (subpath "${familiarHome}"))`);
    expect(hidden).toBeGreaterThan(system);
  });

  it('puts back toolchains, readable and writable folders after the hidden trees, with their parents’ metadata', () => {
    const profile = seatbeltProfile(rules('command'), options);
    const hidden = at(profile, `(deny file-read* (subpath "${home}") (subpath "${familiarHome}"))`);
    const putBack = lines(profile).findIndex((line) => line.startsWith('(allow file-read* (subpath'));
    expect(putBack).toBeGreaterThan(hidden);
    const line = lines(profile)[putBack]!;
    expect(line).toContain(`(subpath "${home}/.cargo")`);
    expect(line).toContain(`(subpath "${home}/.gitconfig")`);
    expect(line).toContain(`(subpath "${workspace}")`);
    expect(line).toContain(`(subpath "${options.tempDir}")`);
    expect(line).not.toContain(`(subpath "${home}")`);
    const metadata = lines(profile).find((entry) => entry.startsWith('(allow file-read-metadata'))!;
    expect(metadata).toContain(`(literal "${home}")`);
    expect(metadata).toContain(`(literal "${home}/code")`);
    expect(metadata).not.toContain(`(literal "${workspace}")`);
  });

  it('a command writes the workspace and its temp folder only', () => {
    const profile = seatbeltProfile(rules('command'), options);
    at(profile, `(allow file-write* (subpath "${workspace}") (subpath "${options.tempDir}"))`);
    expect(lines(profile).filter((line) => line.startsWith('(allow file-write*'))).toHaveLength(1);
  });

  it('git writes only .git; ripgrep and language servers write only their temp folder', () => {
    at(
      seatbeltProfile(rules('git'), options),
      `(allow file-write* (subpath "${workspace}/.git") (subpath "${options.tempDir}"))`,
    );
    for (const kind of ['ripgrep', 'language-server'] as const) {
      const profile = seatbeltProfile(rules(kind), options);
      at(profile, `(allow file-write* (subpath "${options.tempDir}"))`);
      // Read, not written: the workspace is put back for reading.
      expect(lines(profile).find((line) => line.startsWith('(allow file-read* (subpath'))).toContain(
        `(subpath "${workspace}")`,
      );
    }
  });

  it('persona files and git hooks are denied for writing after the write grants, and their parents cannot be moved', () => {
    const profile = seatbeltProfile(rules('command'), options);
    const grant = lines(profile).findIndex((line) => line.startsWith('(allow file-write*'));
    const denyLine = lines(profile).findIndex((line) => line.startsWith('(deny file-write* (subpath'));
    expect(denyLine).toBeGreaterThan(grant);
    const deny = lines(profile)[denyLine]!;
    for (const name of ['SOUL.md', 'HEARTBEAT.md', '.git/hooks', '.git/config', '.mcp.json', '.vscode', '.envrc']) {
      expect(deny).toContain(`(subpath "${workspace}/${name}")`);
    }
    expect(deny).toContain(`(subpath "${familiarHome}/persona/SOUL.md")`);
    at(profile, `(deny file-write-unlink (literal "${workspace}/.git"))`);
  });

  it('leaves an absent .git free for git init, as bwrap does', () => {
    const noRepo = { ...options, exists: (path: string) => (path === workspace ? ('dir' as const) : undefined) };
    const profile = seatbeltProfile(rules('command'), noRepo);
    expect(profile).not.toContain(`(subpath "${workspace}/.git/hooks")`);
    expect(profile).not.toContain(`(literal "${workspace}/.git")`);
    expect(profile).toContain(`(subpath "${workspace}/SOUL.md")`);
  });

  it('memory off: memory files neither read nor written, denied last', () => {
    const profile = seatbeltProfile(rules('command'), options);
    const hidden = lines(profile).findIndex((line) => line.startsWith('(deny file-read* file-write*'));
    const line = lines(profile)[hidden]!;
    for (const name of ['USER.md', 'MEMORY.md', 'memory']) expect(line).toContain(`(subpath "${workspace}/${name}")`);
    expect(hidden).toBeGreaterThan(lines(profile).findIndex((entry) => entry.startsWith('(allow file-read* (subpath')));
    // Memory on: readable, not writable.
    const on = seatbeltProfile({ ...rulesFor('command', { ...folders, memoryOn: true }), cwd: workspace }, options);
    expect(on).not.toContain('(deny file-read* file-write*');
    expect(lines(on).find((entry) => entry.startsWith('(deny file-write* (subpath'))).toContain(
      `(subpath "${workspace}/MEMORY.md")`,
    );
  });

  it('network: nothing without a proxy; with one, only its loopback port', () => {
    expect(lines(seatbeltProfile(rules('command'), options)).filter((line) => line.includes('(allow network'))).toEqual(
      [],
    );
    const profile = seatbeltProfile(rules('command'), { ...options, proxyPort: 49152 });
    expect(lines(profile).filter((line) => line.includes('network'))).toEqual([
      '(allow network-outbound (remote ip "localhost:49152"))',
    ]);
    expect(() => seatbeltProfile(rules('command'), { ...options, proxyPort: 0 })).toThrow(RangeError);
    expect(() => seatbeltProfile(rules('command'), { ...options, proxyPort: 1.5 })).toThrow(RangeError);
  });

  it('refuses a rule path with a control character (the process does not start)', () => {
    const odd = { ...rules('command'), readable: ['/Users/ada/odd\nname'] };
    expect(() => seatbeltProfile(odd, options)).toThrow(SeatbeltPathError);
  });
});

describe('seatbeltArgs', () => {
  it('passes the profile inline, then the program after --', () => {
    expect(seatbeltArgs('(version 1)', ['-rf', '/'])).toEqual(['-p', '(version 1)', '--', '-rf', '/']);
  });
});
