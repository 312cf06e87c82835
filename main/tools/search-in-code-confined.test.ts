import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { confinementMode } from '../platform/processes/confinement';
import type * as outputProcess from '../platform/processes/output-process';
import { ripgrepOnPath } from '../platform/processes/ripgrep-locate';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { searchInCodeTool } from './search-in-code';

/** Every ripgrep search_in_code starts, as started: whether it ran confined, and the rules it had. */
const started = vi.hoisted(() => [] as { confined: boolean; writable: readonly string[] | undefined }[]);
vi.mock('../platform/processes/output-process', async (importOriginal) => {
  const original = await importOriginal<typeof outputProcess>();
  return {
    ...original,
    startOutputProcess: (spec: outputProcess.OutputProcessSpec) => {
      const child = original.startOutputProcess(spec);
      started.push({ confined: child.confined, writable: spec.confinement?.writable });
      return child;
    },
  };
});

const mode = confinementMode();
const tempDir = useTempDirs();
let kit: ToolKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  started.length = 0;
});

describe.skipIf(ripgrepOnPath() === undefined)('search_in_code’s ripgrep', () => {
  it(`runs confined by the rules for ripgrep: nothing writable${mode.confined ? '' : ` (unconfined here: ${mode.reason})`}`, async () => {
    kit = await createToolKit(tempDir, { searchEngine: 'auto' });
    await mkdir(join(kit.workspace, 'src'));
    await writeFile(join(kit.workspace, 'src', 'a.ts'), 'const needle = 1;\n');
    const result = await kit.call(searchInCodeTool, { query: 'needle' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.engine).toBe('ripgrep');
    expect(result.value.results.map((hit) => hit.file)).toEqual(['src/a.ts']);
    expect(started.length).toBeGreaterThan(0);
    for (const run of started) expect(run).toEqual({ confined: mode.confined, writable: [] });
  });
});
