import { link, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultBackupRetention } from '../platform/recovery/recovery-retention';
import { useTempDirs } from '../test-support/temp-dir';
import { readFileTool } from './read-file';
import { searchInCodeTool } from './search-in-code';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';
import { readText } from '../test-support/read-text';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

/** A workspace file that is a second name of a file outside: its bytes are the outside file's. */
async function linkedWorkspace(hardLinks: 'refuse' | 'allow') {
  kit = await createToolKit(tempDir, { sandboxSettings: () => ({ hardLinks, backups: defaultBackupRetention }) });
  const outside = await tempDir('outside-');
  await writeFile(join(outside, 'secret.txt'), 'needle from outside\n');
  await link(join(outside, 'secret.txt'), join(kit.workspace, 'alias.txt'));
  await writeFile(join(kit.workspace, 'own.txt'), 'needle inside\n');
}

describe('hard-linked files', () => {
  it('are refused by read_file and skipped by search_in_code by default', async () => {
    await linkedWorkspace('refuse');
    expect(await kit.call(readFileTool, { path: 'alias.txt' })).toMatchObject({
      ok: false,
      error: { code: 'hard_link_refused' },
    });
    const search = await kit.call(searchInCodeTool, { query: 'needle' });
    if (!search.ok) throw new Error(search.error.message);
    expect(search.value.results.map((hit) => hit.file)).toEqual(['own.txt']);
  });

  it('are read and searched when the user allows them in settings', async () => {
    await linkedWorkspace('allow');
    const read = await readText(kit, { path: 'alias.txt' });
    expect(read.ok && read.value.content).toContain('needle from outside');
    const search = await kit.call(searchInCodeTool, { query: 'needle' });
    if (!search.ok) throw new Error(search.error.message);
    expect(search.value.results.map((hit) => hit.file).sort()).toEqual(['alias.txt', 'own.txt']);
  });
});
