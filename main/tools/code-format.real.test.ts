import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFormatTool, detectIndentation } from './code-format';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

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

let root: string;
let kit: ToolKit;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'familiar-format-'));
  kit = await createToolKit(() => Promise.resolve(root), {
    lsp: { timings: { backoffMs: 50, maxBackoffMs: 200, requestMs: 15_000 } },
  });
  await mkdir(join(kit.workspace, 'src'));
  await writeFile(join(kit.workspace, 'tsconfig.json'), JSON.stringify({ include: ['src'] }));
});

afterAll(async () => {
  await kit.dispose();
  await rm(root, { recursive: true, force: true });
});

const value = <T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
};

describe.sequential('code_format with the real TypeScript server', { timeout: 60_000 }, () => {
  it('previews the formatted text, refuses a file changed since the preview, then writes it with a backup', async () => {
    const file = join(kit.workspace, 'src/messy.ts');
    await writeFile(file, messy);
    const preview = value(await codeFormatTool.prepare!({ path: 'src/messy.ts' }, kit.ctx()));
    expect(preview).toMatchObject({ path: 'src/messy.ts', before: messy, after: tidy });

    // The user was shown `messy`; the file changed meanwhile: nothing is written.
    await writeFile(file, `${messy}// touched\n`);
    const stale = await kit.call(codeFormatTool, { path: 'src/messy.ts' }, { shownBefore: messy });
    expect(stale).toMatchObject({ ok: false, error: { code: 'concurrent_modification' } });
    expect(await readFile(file, 'utf8')).toBe(`${messy}// touched\n`);

    await writeFile(file, messy);
    const formatted = value(await kit.call(codeFormatTool, { path: 'src/messy.ts' }, { shownBefore: messy }));
    expect(formatted.edits).toBeGreaterThan(0);
    expect(formatted.diff).toContain('+export function add(a: number, b: number) {');
    expect(await readFile(file, 'utf8')).toBe(tidy);
    expect(formatted.backup_path).toBeDefined();
    expect(await readdir(kit.services.paths.backups, { recursive: true })).not.toEqual([]);
  });

  it('answers edits: 0 for a formatted file and writes nothing', async () => {
    const again = value(await kit.call(codeFormatTool, { path: 'src/messy.ts' }));
    expect(again).toEqual({ path: 'src/messy.ts', edits: 0, diff: '' });
    expect(await codeFormatTool.prepare!({ path: 'src/messy.ts' }, kit.ctx())).toMatchObject({
      ok: false,
      error: { code: 'no_change' },
    });
  });

  it('writes what the user edited in the dialog instead of the proposal', async () => {
    const file = join(kit.workspace, 'src/other.ts');
    await writeFile(file, messy);
    const mine = `${tidy}// mine\n`;
    value(await kit.call(codeFormatTool, { path: 'src/other.ts' }, { shownBefore: messy, editedContent: mine }));
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
