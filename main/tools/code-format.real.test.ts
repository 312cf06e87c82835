import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFormatTool, detectIndentation } from './code-format';
import { useLspProject, valueOf } from '../test-support/lsp-project';

/** code_format with the real typescript-language-server (shipped in node_modules) on a generated file. */
const messy = `export   function add( a:number,b:number ){
    return a+b
}
const   unused = [1,2,  3];
`;
const tidy = `export function add(a: number, b: number) {
    return a + b
}
const unused = [1, 2, 3];
`;

const project = useLspProject('familiar-format-', {
  'tsconfig.json': JSON.stringify({ include: ['src'] }),
  'src/messy.ts': messy,
});
const value = valueOf;

describe.sequential('code_format with the real TypeScript server', { timeout: 60_000 }, () => {
  it('previews the formatted text, refuses a file changed since the preview, then writes it with a backup', async () => {
    const file = join(project.kit.workspace, 'src/messy.ts');
    await writeFile(file, messy);
    const preview = value(await codeFormatTool.prepare!({ path: 'src/messy.ts' }, project.kit.ctx()));
    expect(preview).toMatchObject({ path: 'src/messy.ts', before: messy, after: tidy });

    // The user was shown `messy`; the file changed meanwhile: nothing is written.
    await writeFile(file, `${messy}// touched\n`);
    const stale = await project.kit.call(codeFormatTool, { path: 'src/messy.ts' }, { shownBefore: messy });
    expect(stale).toMatchObject({ ok: false, error: { code: 'concurrent_modification' } });
    expect(await readFile(file, 'utf8')).toBe(`${messy}// touched\n`);

    await writeFile(file, messy);
    const formatted = value(await project.kit.call(codeFormatTool, { path: 'src/messy.ts' }, { shownBefore: messy }));
    expect(formatted.edits).toBeGreaterThan(0);
    expect(formatted.diff).toContain('+export function add(a: number, b: number) {');
    expect(await readFile(file, 'utf8')).toBe(tidy);
    expect(formatted.backup_path).toBeDefined();
    expect(await readdir(project.kit.services.paths.backups, { recursive: true })).not.toEqual([]);
  });

  it('answers edits: 0 for a formatted file and writes nothing', async () => {
    const again = value(await project.kit.call(codeFormatTool, { path: 'src/messy.ts' }));
    expect(again).toEqual({ path: 'src/messy.ts', edits: 0, diff: '' });
    expect(await codeFormatTool.prepare!({ path: 'src/messy.ts' }, project.kit.ctx())).toMatchObject({
      ok: false,
      error: { code: 'no_change' },
    });
  });

  it('writes what the user edited in the dialog instead of the proposal', async () => {
    const file = join(project.kit.workspace, 'src/other.ts');
    await writeFile(file, messy);
    const mine = `${tidy}// mine\n`;
    value(
      await project.kit.call(codeFormatTool, { path: 'src/other.ts' }, { shownBefore: messy, editedContent: mine }),
    );
    expect(await readFile(file, 'utf8')).toBe(mine);
  });
});

describe('detectIndentation', () => {
  it('keeps tabs, the smallest space indent, or 2', () => {
    expect(detectIndentation('a\n\tb\n')).toMatchObject({ insertSpaces: false });
    expect(detectIndentation('a\n    b\n      c\n')).toMatchObject({ insertSpaces: true, tabSize: 4 });
    expect(detectIndentation('a\n')).toMatchObject({ insertSpaces: true, tabSize: 2 });
  });
});
