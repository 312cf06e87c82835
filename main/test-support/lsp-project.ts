import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createToolKit } from './tool-kit';
import type { ToolKit } from './tool-kit';

/**
 * For the tests that run the real typescript-language-server: one generated project per test file
 * (a cold server costs seconds, so the file's tests share it), short retry timings, removed after.
 * `files` are workspace-relative paths and their text; a tsconfig.json is among them as the test wants it.
 */
export function useLspProject(prefix: string, files: Readonly<Record<string, string>>): { readonly kit: ToolKit } {
  let root = '';
  const project: { kit: ToolKit | undefined } = { kit: undefined };
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
    const kit = await createToolKit(() => Promise.resolve(root), {
      lsp: { timings: { backoffMs: 50, maxBackoffMs: 200, requestMs: 15_000 } },
    });
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(kit.workspace, path)), { recursive: true });
      await writeFile(join(kit.workspace, path), text);
    }
    project.kit = kit;
  });
  afterAll(async () => {
    await project.kit?.dispose();
    await rm(root, { recursive: true, force: true });
  });
  return {
    get kit() {
      if (project.kit === undefined) throw new Error('useLspProject: the project is made in beforeAll');
      return project.kit;
    },
  };
}

/** A tool's result as a value; a refusal fails the test with its code and message. */
export const valueOf = <T>(
  result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
): T => {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
};
