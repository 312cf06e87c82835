import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { fileSemanticSearchTool } from './file-semantic-search';
import type { SemanticSearchOutput } from './file-semantic-search';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';

const { tempDir } = useToolCallsKits();

const files = async (kit: ToolCallsKit, query: string) => {
  const result = await kit.call('file_semantic_search', { query, top_k: 10 });
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (result as { value: SemanticSearchOutput }).value.results.map((hit) => hit.file).sort();
};

/** The open index, for what a refresh did (a full scan or only the paths the watch named). */
const indexOf = (kit: ToolCallsKit) => kit.kit.services.searchIndexes.for(kit.kit.env.sandbox);

const until = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 5000, interval: 50 });

describe('file_semantic_search follows outside changes through the tree watcher', () => {
  it('a renamed folder: its files under the new name only, and a change inside it later, without a full scan', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    const root = kit.kit.workspace;
    await mkdir(join(root, 'old', 'deep'), { recursive: true });
    await writeFile(join(root, 'old', 'deep', 'a.md'), 'The heron nests by the pond.\n');
    expect(await files(kit, 'heron')).toEqual(['old/deep/a.md']);

    await rename(join(root, 'old'), join(root, 'new'));
    await until(async () => expect(await files(kit, 'heron')).toEqual(['new/deep/a.md']));
    // The moved folder's own folders are watched under their new names: a file added there is seen.
    await writeFile(join(root, 'new', 'deep', 'b.md'), 'A second heron arrived.\n');
    await until(async () => expect(await files(kit, 'heron')).toEqual(['new/deep/a.md', 'new/deep/b.md']));
    await writeFile(join(root, 'new', 'deep', 'a.md'), 'Only ducks now.\n');
    await until(async () => {
      const stats = await indexOf(kit).refresh();
      expect(stats.fullScan).toBe(false);
      expect(await files(kit, 'heron')).toEqual(['new/deep/b.md']);
    });
  });

  it('a file the .gitignore leaves out stays out when it appears in a watched folder', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    const root = kit.kit.workspace;
    await writeFile(join(root, '.gitignore'), '*.log\n');
    await writeFile(join(root, 'seed.md'), 'Nothing here yet.\n');
    expect(await files(kit, 'kestrel')).toEqual([]);
    await writeFile(join(root, 'debug.log'), 'kestrel kestrel kestrel\n');
    await writeFile(join(root, 'notes.md'), 'A kestrel hovered.\n');
    await until(async () => expect(await files(kit, 'kestrel')).toEqual(['notes.md']));
    expect((await indexOf(kit).refresh()).fullScan).toBe(false);
    expect(await files(kit, 'kestrel')).toEqual(['notes.md']);
  });

  it('with the persona overlay: an outside edit of MEMORY.md is seen, the hidden workspace copy never', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    const root = kit.kit.workspace;
    const persona = kit.kit.personaDir;
    expect(persona).not.toBe(root);
    await writeFile(join(root, 'seed.md'), 'Nothing here yet.\n');
    expect(await files(kit, 'albatross')).toEqual([]);
    await writeFile(join(persona, 'MEMORY.md'), 'The user saw an albatross in May.\n');
    await until(async () => expect(await files(kit, 'albatross')).toEqual(['MEMORY.md']));
    // The workspace's own MEMORY.md is hidden by the overlay: its change shows nothing of it.
    await writeFile(join(root, 'MEMORY.md'), 'albatross petrel in the workspace copy\n');
    await writeFile(join(root, 'control.md'), 'A petrel flew over.\n');
    await until(async () => expect(await files(kit, 'petrel')).toEqual(['control.md']));
    const found = await kit.call('file_semantic_search', { query: 'albatross petrel', top_k: 10 });
    expect(JSON.stringify(found)).toContain('albatross in May');
    expect(JSON.stringify(found)).not.toContain('workspace copy');
    expect((await indexOf(kit).refresh()).fullScan).toBe(false);
  });
});
