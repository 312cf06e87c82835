import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { fileSemanticSearchTool } from './file-semantic-search';
import { deleteFileTool } from './delete-file';
import { writeFileTool } from './write-file';
import type { SemanticSearchOutput } from './file-semantic-search';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { ToolCallsKit } from '../test-support/tool-calls-kit';

const { tempDir, start } = useToolCallsKits();

async function setup(isConcealed?: (path: string) => boolean) {
  const kit = await createToolCallsKit(
    tempDir,
    [fileSemanticSearchTool],
    isConcealed === undefined ? {} : { isConcealed },
  );
  return { kit, root: kit.kit.workspace };
}

const search = async (kit: ToolCallsKit, query: string, topK = 3) => {
  const result = await kit.call('file_semantic_search', { query, top_k: topK });
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (result as { value: SemanticSearchOutput }).value;
};

const russianNotes = [
  '# Заметки о доме',
  '',
  'Кошка спит на подоконнике весь день.',
  '',
  '## Сад',
  '',
  'Весной мы посадили яблони и вишни вдоль забора.',
  'Поливать их нужно каждый вечер.',
  '',
].join('\n');

describe('file_semantic_search through the registry', () => {
  it('finds a Russian paragraph by a different word form, with file, lines, score and snippet', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'дом.md'), russianNotes);
    await writeFile(join(root, 'other.md'), '# Cooking\n\nBoil the pasta for nine minutes.\n');
    // "яблоней" (instrumental plural) and "посадка" are not in the text; "яблони", "посадили" are.
    const found = await search(kit, 'посадка яблоней');
    expect(found.results[0]).toMatchObject({
      file: 'дом.md',
      start_line: 5,
      end_line: 8,
      heading: 'Сад',
      snippet: '## Сад\n\nВесной мы посадили яблони и вишни вдоль забора.\nПоливать их нужно каждый вечер.',
    });
    expect(found.results[0]?.score).toBeGreaterThan(0);
    expect(found.results.map((hit) => hit.file)).not.toContain('other.md');
    expect(found.indexed_files).toBe(2);
    expect(kit.requests).toHaveLength(0);
  });

  it('finds English by stem and ranks the better passage first', async () => {
    const { kit, root } = await setup();
    await writeFile(
      join(root, 'a.md'),
      '# Deploy\n\nDeploying the server requires the staging keys.\n\n# Misc\n\nThe server room is cold.\n',
    );
    const found = await search(kit, 'how to deploy servers', 2);
    expect(found.results[0]).toMatchObject({ file: 'a.md', heading: 'Deploy', start_line: 1 });
    expect(found.results).toHaveLength(2);
  });

  it('stays fresh: edits, new files in new folders and deletions are seen by the next query', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.md'), 'The lighthouse keeper writes letters.\n');
    expect((await search(kit, 'lighthouse')).results.map((hit) => hit.file)).toEqual(['a.md']);
    await writeFile(join(root, 'a.md'), 'Nothing about towers here.\n');
    await mkdir(join(root, 'new', 'deep'), { recursive: true });
    await writeFile(join(root, 'new', 'deep', 'b.md'), 'A lighthouse on the northern cape.\n');
    await vi.waitFor(
      async () => expect((await search(kit, 'lighthouse')).results.map((hit) => hit.file)).toEqual(['new/deep/b.md']),
      {
        timeout: 5000,
        interval: 100,
      },
    );
    await rm(join(root, 'new'), { recursive: true });
    await vi.waitFor(async () => expect((await search(kit, 'lighthouse')).results).toEqual([]), {
      timeout: 5000,
      interval: 100,
    });
  });

  it('never follows a symlink that appears after the index was built (new, or swapped for a file or folder)', async () => {
    const { kit, root } = await setup();
    const outside = await tempDir('outside-');
    await writeFile(join(outside, 'secret.md'), 'The walrus password is hunter2.\n');
    await mkdir(join(outside, 'dir'));
    await writeFile(join(outside, 'dir', 'deep.md'), 'The walrus vault code is 0451.\n');
    await mkdir(join(root, 'docs'));
    await writeFile(join(root, 'docs', 'guide.md'), 'A walrus guide for visitors.\n');
    await writeFile(join(root, 'note.md'), 'A note about the walrus pool.\n');
    expect((await search(kit, 'walrus', 10)).results.map((hit) => hit.file).sort()).toEqual([
      'docs/guide.md',
      'note.md',
    ]);
    // The index is built: now a new link, a file swapped for a link and a folder swapped for one.
    await symlink(join(outside, 'secret.md'), join(root, 'late.md'));
    await rm(join(root, 'note.md'));
    await symlink(join(outside, 'secret.md'), join(root, 'note.md'));
    await rm(join(root, 'docs'), { recursive: true });
    await symlink(join(outside, 'dir'), join(root, 'docs'));
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const found = await search(kit, 'walrus password vault code', 10);
      expect(JSON.stringify(found)).not.toMatch(/hunter2|0451|password is|vault code/);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await vi.waitFor(async () => expect((await search(kit, 'walrus', 10)).results).toEqual([]), {
      timeout: 5000,
      interval: 100,
    });
  });

  it('skips ignored, binary and secret files and leaves concealed files out of results', async () => {
    const { kit, root } = await setup((path) => path === 'private.md');
    await writeFile(join(root, '.gitignore'), 'build/\n');
    await mkdir(join(root, 'build'));
    await writeFile(join(root, 'build', 'out.md'), 'zebra in the build output\n');
    await writeFile(join(root, '.env'), 'ZEBRA_TOKEN=zebra\n');
    await writeFile(join(root, 'blob.bin'), Buffer.from([0x7a, 0x65, 0x62, 0x72, 0x61, 0, 0, 1]));
    await writeFile(join(root, 'private.md'), 'zebra diary\n');
    await writeFile(join(root, 'public.md'), 'zebra crossing\n');
    const found = await search(kit, 'zebra', 10);
    expect(found.results.map((hit) => hit.file)).toEqual(['public.md']);
  });

  it("sees the tools' own writes at the next query even without a file watcher", async () => {
    const kit = await start([fileSemanticSearchTool, writeFileTool, deleteFileTool], {
      approvalMode: 'approve-all',
      watchSearchIndex: false,
    });
    await writeFile(join(kit.kit.workspace, 'a.md'), 'Notes about lighthouses.\n');
    expect((await search(kit, 'walrus')).results).toEqual([]);
    const wrote = await kit.call('write_file', { path: 'new/deep/b.md', content: 'The walrus census moved.\n' });
    expect(wrote.ok, JSON.stringify(wrote)).toBe(true);
    expect((await search(kit, 'walrus')).results.map((hit) => hit.file)).toEqual(['new/deep/b.md']);
    expect((await kit.call('delete_file', { path: 'new/deep/b.md' })).ok).toBe(true);
    expect((await search(kit, 'walrus')).results).toEqual([]);
    expect((await search(kit, 'walrus')).indexed_files).toBe(1);
  });

  it('persists the index in the Familiar home and reuses it', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.md'), 'Persistent walrus notes.\n');
    await search(kit, 'walrus');
    await kit.kit.services.searchIndexes.close();
    const saved = await readdir(join(kit.kit.home, 'search-index'));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^[0-9a-f]{16}\.segments$/);
    // A segment file and the manifest naming it (bm25-index.ts), no whole-index JSON.
    const parts = await readdir(join(kit.kit.home, 'search-index', saved[0] as string));
    expect(parts.filter((name) => name.endsWith('.seg'))).toHaveLength(1);
    expect(parts).toContain('manifest.json');
    // A new index object for the same folder opens the segments and finds the note without re-reading it.
    const reopened = kit.kit.services.searchIndexes.for(kit.kit.env.sandbox);
    const stats = await reopened.refresh();
    expect(stats).toMatchObject({ files: 1, reindexed: 0, fullScan: true });
    expect((await search(kit, 'walrus')).results[0]?.file).toBe('a.md');
  });

  it('answers the first query after a restart from the saved segments at once, then checks what changed', async () => {
    const { kit, root } = await setup();
    await writeFile(join(root, 'a.md'), 'Persistent walrus notes.\n');
    await search(kit, 'walrus');
    await kit.kit.services.searchIndexes.close();
    // Written while the app was closed: only the check after the first answer can find it.
    await writeFile(join(root, 'b.md'), 'Another walrus, a later one.\n');
    const first = await search(kit, 'walrus');
    expect(first.results.map((hit) => hit.file)).toEqual(['a.md']);
    expect(first.state).toBe('building');
    let next = await search(kit, 'walrus');
    while (next.state === 'building') next = await search(kit, 'walrus');
    expect(next.results.map((hit) => hit.file).sort()).toEqual(['a.md', 'b.md']);
  });
});
