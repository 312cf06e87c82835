import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeDefinitionTool } from './code-definition';
import { codeDiagnosticsTool } from './code-diagnostics';
import { codeHoverTool } from './code-hover';
import { codeReferencesTool } from './code-references';
import { codeRenameTool } from './code-rename';
import { codeSymbolsTool } from './code-symbols';
import { editFileTool } from './edit-file';
import { readFileTool } from './read-file';
import { useLspProject, valueOf } from '../test-support/lsp-project';
import { isAlive } from '../test-support/process-alive';

/**
 * The real typescript-language-server on a generated three-file project. One server serves the
 * whole file (a cold start costs seconds); the tests run in order and build on each other.
 */
const money = `export interface Item {
  name: string;
  cents: number;
}

export function formatPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}
`;
const cart = `import { formatPrice } from './money';
import type { Item } from './money';

export class Cart {
  items: Item[] = [];

  total(): number {
    return this.items.reduce((sum, item) => sum + item.cents, 0);
  }

  label(): string {
    return formatPrice(this.total());
  }
}
`;
const main = `import { Cart } from './cart';
import { formatPrice } from './money';

const cart = new Cart();
cart.items.push({ name: 'tea', cents: 250 });
export const shown = [cart.label(), formatPrice(5)];
`;

const project = useLspProject('familiar-lsp-', {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', lib: ['ES2022', 'DOM'] },
    include: ['src'],
  }),
  'src/money.ts': money,
  'src/cart.ts': cart,
  'src/main.ts': main,
});
const value = valueOf;
const started = Date.now();
afterAll(() => console.log(`code tools with the real typescript-language-server: ${Date.now() - started} ms`));

describe.sequential('code tools on a real TypeScript project', { timeout: 30_000 }, () => {
  it('finds no problems in the clean project', async () => {
    const checked = value(await project.kit.call(codeDiagnosticsTool, {}));
    expect(checked.files_checked).toBe(3);
    expect(checked.diagnostics).toEqual([]);
  });

  it('goes to a definition in another file, by position and by name', async () => {
    // main.ts line 6: export const shown = [cart.label(), formatPrice(5)];
    const column = main.split('\n')[5]!.indexOf('formatPrice') + 1;
    const byPosition = value(await project.kit.call(codeDefinitionTool, { path: 'src/main.ts', line: 6, column }));
    expect(byPosition.definitions).toEqual([
      expect.objectContaining({
        path: 'src/money.ts',
        line: 6,
        text: 'export function formatPrice(cents: number): string {',
      }),
    ]);
    const byName = value(await project.kit.call(codeDefinitionTool, { symbol: 'Cart.total' }));
    expect(byName.definitions).toEqual([expect.objectContaining({ path: 'src/cart.ts', line: 7 })]);
  });

  it('finds references across the three files', async () => {
    const found = value(await project.kit.call(codeReferencesTool, { symbol: 'formatPrice', path: 'src/money.ts' }));
    expect(new Set(found.references.map((ref) => ('path' in ref ? ref.path : '')))).toEqual(
      new Set(['src/money.ts', 'src/cart.ts', 'src/main.ts']),
    );
    expect(found.total).toBe(5);
  });

  it('outlines a file and searches symbols', async () => {
    const outline = value(await project.kit.call(codeSymbolsTool, { path: 'src/cart.ts' }));
    expect(outline.symbols).toContainEqual(
      expect.objectContaining({ name: 'total', kind: 'method', container: 'Cart', line: 7 }),
    );
    const search = value(await project.kit.call(codeSymbolsTool, { query: 'formatPrice' }));
    expect(search.symbols).toContainEqual(
      expect.objectContaining({ name: 'formatPrice', path: 'src/money.ts', line: 6 }),
    );
  });

  it('answers nothing from outside the workspace but its package and file', async () => {
    // toFixed (money.ts line 7) is declared in TypeScript's lib.es5.d.ts, outside the workspace.
    const column = money.split('\n')[6]!.indexOf('toFixed') + 1;
    const definition = value(await project.kit.call(codeDefinitionTool, { path: 'src/money.ts', line: 7, column }));
    expect(definition.definitions.length).toBeGreaterThan(0);
    for (const place of definition.definitions) {
      expect(place).toEqual({
        outside_workspace: true,
        package: 'typescript',
        file: expect.stringMatching(/^lib\/lib\..*d\.ts$/) as string,
      });
    }
    const hover = value(await project.kit.call(codeHoverTool, { path: 'src/money.ts', line: 7, column }));
    expect(hover).toMatchObject({ hover: null, defined_in: { outside_workspace: true, package: 'typescript' } });
    const text = JSON.stringify([definition, hover]);
    expect(text).not.toContain('declare');
    expect(text).not.toContain(join(project.kit.workspace, '..'));
    // Inside the workspace hover shows the declaration.
    const inside = value(await project.kit.call(codeHoverTool, { symbol: 'formatPrice', path: 'src/money.ts' }));
    expect(inside.hover).toContain('formatPrice(cents: number): string');
  });

  it('reports a type error at its line, in the edit_file result that introduced it too', async () => {
    value(await project.kit.call(readFileTool, { path: 'src/main.ts' }));
    const edited = value(
      await project.kit.call(editFileTool, {
        path: 'src/main.ts',
        oldText: 'export const shown = [cart.label(), formatPrice(5)];\n',
        newText: 'export const shown = [cart.label(), formatPrice(5)];\nconst wrong: number = formatPrice(7);\n',
      }),
    );
    expect(edited.new_problems).toEqual([
      expect.objectContaining({ path: 'src/main.ts', severity: 'error', line: 7, code: 2322 }),
    ]);
    const checked = value(await project.kit.call(codeDiagnosticsTool, { path: 'src/main.ts' }));
    expect(checked.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        line: 7,
        column: 7,
        message: expect.stringContaining("'string' is not assignable to type 'number'") as string,
      }),
    );
  });

  it('restarts a server killed mid-use and answers', async () => {
    const client = project.kit.services.code.lsp.client('typescript');
    const pid = client?.pid;
    expect(pid).toBeTypeOf('number');
    client?.killForTest();
    const found = value(await project.kit.call(codeReferencesTool, { symbol: 'formatPrice', path: 'src/money.ts' }));
    expect(found.total).toBe(6);
    expect(client?.pid).not.toBe(pid);
    expect(client?.restarts).toBe(1);
  });

  it('renames across three files, all at once, after showing each file before and after', async () => {
    const args = { symbol: 'formatPrice', path: 'src/money.ts', new_name: 'formatCents' };
    const preview = value(await codeRenameTool.prepare!(codeRenameTool.input.parse(args), project.kit.ctx()));
    expect(preview.files?.map((file) => file.path)).toEqual(['src/cart.ts', 'src/main.ts', 'src/money.ts']);
    expect(preview.summary).toBe('Rename formatPrice to formatCents in 3 files');
    // The file changes after the user saw the preview: nothing is written.
    const seen = preview.before!;
    await writeFile(join(project.kit.workspace, 'src/cart.ts'), `${cart}// touched\n`);
    const stale = await project.kit.call(codeRenameTool, args, { shownBefore: seen });
    expect(stale).toMatchObject({ ok: false, error: { code: 'concurrent_modification' } });
    expect(await readFile(join(project.kit.workspace, 'src/money.ts'), 'utf8')).toContain('formatPrice');

    const renamed = value(await project.kit.call(codeRenameTool, args));
    expect(renamed.files.map((file) => file.path)).toEqual(['src/cart.ts', 'src/main.ts', 'src/money.ts']);
    for (const file of ['src/money.ts', 'src/cart.ts', 'src/main.ts']) {
      const text = await readFile(join(project.kit.workspace, file), 'utf8');
      expect(text).toContain('formatCents');
      expect(text).not.toContain('formatPrice');
    }
    expect(await readFile(renamed.files[1]!.backup_path!, 'utf8')).toContain('formatPrice(7)');
  });

  it('stops the servers when another folder is opened', async () => {
    const pid = project.kit.services.code.lsp.client('typescript')!.pid!;
    await project.kit.services.code.lsp.switchWorkspace(undefined);
    expect(project.kit.services.code.lsp.status()).toEqual([]);
    // Polite shutdown first, then the process group is killed: the process is gone within a second.
    await expect.poll(() => isAlive(pid), { timeout: 3000 }).toBe(false);
  });

  it('answers language_server_unavailable with an install hint when no server is installed', async () => {
    await writeFile(join(project.kit.workspace, 'tool.py'), 'print(1)\n');
    const path = process.env['PATH'];
    process.env['PATH'] = join(project.kit.workspace, 'empty-bin');
    try {
      const result = await project.kit.call(codeSymbolsTool, { path: 'tool.py' });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'language_server_unavailable',
          details: { server: 'pyright', install_hint: expect.stringContaining('pyright') as string },
        },
      });
    } finally {
      process.env['PATH'] = path;
    }
  });
});
