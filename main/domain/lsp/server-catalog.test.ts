import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledPackageFile } from '../../platform/processes/server-process';
import { nodeScriptCommand } from './server-catalog';

/** How a Node-script server (typescript-language-server) is started in each kind of process. */
describe('nodeScriptCommand', () => {
  const script = '/app/node_modules/typescript-language-server/lib/cli.mjs';
  const base = { execPath: '/opt/Familiar/familiar', nodeOnPath: undefined };

  it('plain Node (browser mode, MCP, tests) runs the script with its own binary', () => {
    expect(nodeScriptCommand(script, ['--stdio'], { ...base, electron: false, packaged: false })).toEqual({
      file: '/opt/Familiar/familiar',
      args: [script, '--stdio'],
    });
  });

  it('Electron prefers node on PATH, packaged or not', () => {
    for (const packaged of [false, true]) {
      expect(
        nodeScriptCommand(script, ['--stdio'], { ...base, electron: true, packaged, nodeOnPath: '/usr/bin/node' }),
      ).toEqual({ file: '/usr/bin/node', args: [script, '--stdio'] });
    }
  });

  it('development Electron without node falls back to ELECTRON_RUN_AS_NODE', () => {
    expect(nodeScriptCommand(script, ['--stdio'], { ...base, electron: true, packaged: false })).toEqual({
      file: '/opt/Familiar/familiar',
      args: [script, '--stdio'],
      set: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('the packaged app without node has no way to run it (the runAsNode fuse is off): unavailable, never a second app', () => {
    expect(nodeScriptCommand(script, ['--stdio'], { ...base, electron: true, packaged: true })).toBeUndefined();
  });
});

describe('bundledPackageFile', () => {
  it('prefers the packaged app’s language-servers resources, else the app’s node_modules', async () => {
    const shipped = await mkdtemp(join(tmpdir(), 'familiar-resources-'));
    try {
      await mkdir(join(shipped, 'typescript', 'lib'), { recursive: true });
      await writeFile(join(shipped, 'typescript', 'lib', 'tsserver.js'), '// shipped\n');
      expect(bundledPackageFile('typescript', 'lib/tsserver.js', shipped)).toBe(
        join(shipped, 'typescript', 'lib', 'tsserver.js'),
      );
      // Not in the resources (development, or a file the build left out): the app's own copy.
      expect(bundledPackageFile('typescript-language-server', 'lib/cli.mjs', shipped)).toMatch(
        /node_modules[\\/]typescript-language-server[\\/]lib[\\/]cli\.mjs$/,
      );
      expect(bundledPackageFile('typescript', 'lib/tsserver.js', undefined)).toMatch(
        /node_modules[\\/]typescript[\\/]lib[\\/]tsserver\.js$/,
      );
    } finally {
      await rm(shipped, { recursive: true, force: true });
    }
  });
});
