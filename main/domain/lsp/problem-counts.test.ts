import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { problemsOf } from './problem-counts';

const root = join('/', 'work', 'project');
const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const diagnostic = (severity: Diagnostic['severity']): Diagnostic => ({
  range: at,
  message: 'x',
  ...(severity === undefined ? {} : { severity }),
});

describe('problemsOf', () => {
  it('counts errors (also without a severity) and warnings, not information or hints', () => {
    const uri = pathToFileURL(join(root, 'src', 'a.ts')).href;
    const items = [1, 1, undefined, 2, 3, 4].map((severity) => diagnostic(severity as Diagnostic['severity']));
    expect(problemsOf(root, uri, items)).toEqual({ root, path: 'src/a.ts', errors: 3, warnings: 1 });
  });

  it('reports a file without problems as zero, so the tree clears it', () => {
    expect(problemsOf(root, pathToFileURL(join(root, 'b.ts')).href, [])).toEqual({
      root,
      path: 'b.ts',
      errors: 0,
      warnings: 0,
    });
  });

  it('says nothing about files outside the workspace (library typings)', () => {
    const uri = pathToFileURL(join('/', 'usr', 'lib', 'node_modules', 'typescript', 'lib', 'lib.d.ts')).href;
    expect(problemsOf(root, uri, [diagnostic(1)])).toBeUndefined();
  });
});
