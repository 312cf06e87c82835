import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { expect } from 'vitest';
import tseslint from 'typescript-eslint';

/** The repository root (the lint config's cwd). */
export const repoRoot = join(import.meta.dirname, '..', '..');

export interface LintMessage {
  readonly ruleId: string;
  readonly message: string;
}

/** Lints a probe file that does not exist on disk, as if it sat at `filePath` (relative to the root). */
export async function lintProbe(filePath: string, code: string): Promise<LintMessage[]> {
  const eslint = new ESLint({
    cwd: repoRoot,
    // Probe files are in no tsconfig: switch off only the type-aware rules, keep the layering ones.
    overrideConfig: [
      tseslint.configs.disableTypeChecked,
      { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, filePath) });
  return (result?.messages ?? []).map((message) => ({
    ruleId: message.ruleId ?? message.message,
    message: message.message,
  }));
}

/** Every .ts/.tsx file under `dir`, recursively. */
export async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Lints `code` at `file` and expects a restriction rule to refuse it with a message naming where to go (`where`). */
export async function expectRefusedWith(file: string, code: string, where: RegExp): Promise<void> {
  expect(await lintProbe(file, `${code}\nexport const probe = 1;\n`)).toContainEqual({
    ruleId: expect.stringMatching(/^no-restricted-(imports|syntax)$/) as string,
    message: expect.stringMatching(where) as string,
  });
}
