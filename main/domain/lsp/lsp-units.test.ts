import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { WorkspaceSandbox } from '../../platform/disk/workspace-sandbox';
import { introduced } from './diagnostic-view';
import { watchWrite } from './diagnostics-after-write';
import { placeOf } from './locations';
import { LspService } from './lsp-service';
import { commandFor, definitionFor, builtInServers } from './server-catalog';

const diagnostic = (line: number, message: string, code = 2322): Diagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  message,
  code,
  severity: 1,
});

describe('introduced problems', () => {
  it('are the diagnostics after minus before, by what they say, whatever line they moved to', () => {
    const before = [diagnostic(3, 'a'), diagnostic(9, 'b')];
    const after = [diagnostic(4, 'a'), diagnostic(10, 'b'), diagnostic(12, 'b'), diagnostic(1, 'c')];
    expect(introduced(before, after).map((item) => [item.range.start.line, item.message])).toEqual([
      [12, 'b'],
      [1, 'c'],
    ]);
  });
});

describe('diagnostics after edits', () => {
  const sandbox = { workspaceRoot: '/work/project' } as WorkspaceSandbox;
  it('are skipped when the setting is off, or when no server runs for the file', async () => {
    const lsp = new LspService();
    expect(await watchWrite({ lsp, diagnosticsAfterEdits: () => false }, sandbox, 'src/a.ts')).toBeUndefined();
    expect(await watchWrite({ lsp, diagnosticsAfterEdits: () => true }, sandbox, 'src/a.ts')).toBeUndefined();
    expect(await watchWrite(undefined, sandbox, 'src/a.ts')).toBeUndefined();
  });
});

describe('places outside the workspace', () => {
  const root = '/home/ana/project';
  it('are named by package and file, never by absolute path', () => {
    expect(placeOf('file:///home/ana/project/src/a.ts', root)).toEqual({ inside: true, path: 'src/a.ts' });
    expect(placeOf('file:///opt/familiar/node_modules/typescript/lib/lib.es5.d.ts', root)).toEqual({
      inside: false,
      package: 'typescript',
      file: 'lib/lib.es5.d.ts',
    });
    expect(placeOf('file:///home/ana/.cache/node_modules/@types/node/fs.d.ts', root)).toEqual({
      inside: false,
      package: '@types/node',
      file: 'fs.d.ts',
    });
    expect(placeOf('file:///usr/include/stdio.h', root)).toEqual({ inside: false, package: null, file: 'stdio.h' });
    // A sibling whose name starts like the workspace is outside.
    expect(placeOf('file:///home/ana/project-secrets/key.ts', root)).toMatchObject({ inside: false });
  });
});

describe('server catalog', () => {
  it('ships TypeScript and types a missing server with an install hint', () => {
    expect(commandFor(definitionFor(builtInServers, 'src/a.tsx'), 'src/a.tsx').ok).toBe(true);
    const missing = commandFor({ ...builtInServers[1]!, resolve: () => undefined }, 'tool.py');
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'language_server_unavailable', details: { server: 'pyright' } },
    });
    expect(commandFor(undefined, 'notes.md')).toMatchObject({
      ok: false,
      error: { code: 'language_server_unavailable' },
    });
  });
});
