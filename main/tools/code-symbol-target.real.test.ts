import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeDefinitionTool } from './code-definition';
import { codeHoverTool } from './code-hover';
import { codeReferencesTool } from './code-references';
import { codeRenameTool } from './code-rename';
import { useLspProject, valueOf } from '../test-support/lsp-project';

/**
 * Code tools called as a model calls them (issue 33): a name imported and used in app.ts but
 * declared in greet.ts, given with path, with a position, or with a position that misses it.
 * The real typescript-language-server; one server for the file, tests in order.
 */
const greet = `export function greetPerson(name: string): string {
  return 'Hello, ' + name;
}
`;
// greetPerson starts at column 24 of line 3.
const app = `import { greetPerson } from './greet';

export const message = greetPerson('Ada');
`;

const project = useLspProject('familiar-lsp-symbol-', {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext' },
    include: ['src'],
  }),
  'src/greet.ts': greet,
  'src/app.ts': app,
});
const value = valueOf;

const declaration: unknown = expect.objectContaining({
  path: 'src/greet.ts',
  line: 1,
  text: 'export function greetPerson(name: string): string {',
});

describe.sequential('a symbol given with path, as a model gives it', { timeout: 30_000 }, () => {
  it('uses the position it is given, the name checking it', async () => {
    const args = { path: 'src/app.ts', symbol: 'greetPerson', line: 3, column: 24 };
    const definition = value(await project.kit.call(codeDefinitionTool, args));
    expect(definition.definitions).toEqual([declaration]);
    const hover = value(await project.kit.call(codeHoverTool, args));
    expect(hover).toMatchObject({ path: 'src/app.ts', line: 3, column: 24 });
    expect(hover.hover).toContain('greetPerson(name: string): string');
    // A position just after the name touches it.
    const touching = value(await project.kit.call(codeHoverTool, { ...args, column: 24 + 'greetPerson'.length }));
    expect(touching).toMatchObject({ line: 3, column: 24 });
  });

  it('finds a name used but not declared in path at its first use there', async () => {
    const args = { path: 'src/app.ts', symbol: 'greetPerson' };
    expect(value(await project.kit.call(codeDefinitionTool, args)).definitions).toEqual([declaration]);
    const hover = value(await project.kit.call(codeHoverTool, args));
    expect(hover).toMatchObject({ line: 1, column: 10 });
    expect(hover.hover).toContain('greetPerson');
    const references = value(await project.kit.call(codeReferencesTool, args));
    expect(references.references.map((ref) => ('path' in ref ? `${ref.path}:${ref.line}` : ''))).toEqual(
      expect.arrayContaining(['src/greet.ts:1', 'src/app.ts:1', 'src/app.ts:3']),
    );
  });

  it('still finds the name when the position misses it', async () => {
    // On the right line but at another identifier (message): the name nearest on that line.
    const sameLine = value(
      await project.kit.call(codeHoverTool, { path: 'src/app.ts', symbol: 'greetPerson', line: 3, column: 14 }),
    );
    expect(sameLine).toMatchObject({ line: 3, column: 24 });
    // A line without it (the blank line 2), or past the end: the name's first use in the file.
    for (const line of [2, 40]) {
      const args = { path: 'src/app.ts', symbol: 'greetPerson', line, column: 5 };
      expect(value(await project.kit.call(codeDefinitionTool, args)).definitions).toEqual([declaration]);
      expect(value(await project.kit.call(codeHoverTool, args))).toMatchObject({ line: 1, column: 10 });
    }
  });

  it('answers not_found naming the position and the name when the file has neither', async () => {
    const result = await project.kit.call(codeDefinitionTool, {
      path: 'src/app.ts',
      symbol: 'farewell',
      line: 3,
      column: 24,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const message = result.ok ? '' : result.error.message;
    expect(message).toContain("'farewell'");
    expect(message).toContain('src/app.ts:3:24');
    const withoutPosition = await project.kit.call(codeHoverTool, { path: 'src/app.ts', symbol: 'farewell' });
    expect(withoutPosition).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('renames from a use site in the file that imports the name', async () => {
    const renamed = value(
      await project.kit.call(codeRenameTool, { path: 'src/app.ts', symbol: 'greetPerson', new_name: 'welcome' }),
    );
    expect(renamed.old_name).toBe('greetPerson');
    expect(renamed.files.map((file) => file.path)).toEqual(['src/app.ts', 'src/greet.ts']);
    // The declaration is renamed too, not only the import (tsserver's alias when asked there).
    expect(await readFile(join(project.kit.workspace, 'src/greet.ts'), 'utf8')).toBe(
      greet.replace('greetPerson', 'welcome'),
    );
    expect(await readFile(join(project.kit.workspace, 'src/app.ts'), 'utf8')).toBe(
      app.replaceAll('greetPerson', 'welcome'),
    );
  });
});
