import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type * as walker from '../platform/disk/workspace-walker';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { fileSemanticSearchTool } from './file-semantic-search';

/** While set, the semantic scan's walk (every file's facts) waits for it: a workspace that takes long to walk. */
const held = vi.hoisted(() => ({ walk: undefined as Promise<void> | undefined }));
vi.mock('../platform/disk/workspace-walker', async (importOriginal) => {
  const original = await importOriginal<typeof walker>();
  return {
    ...original,
    walkWorkspace: async (...args: Parameters<typeof original.walkWorkspace>) => {
      if (args[2].withFacts === true && held.walk !== undefined) await held.walk;
      return original.walkWorkspace(...args);
    },
  };
});

const { tempDir } = useToolCallsKits();

describe('the first semantic query of a big workspace (issue 32)', () => {
  it('answers, partial, once the walk outlasts its patience, however long it would have waited', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    await writeFile(join(kit.kit.workspace, 'note.md'), 'A note about otters.\n');
    const index = kit.kit.services.searchIndexes.for(kit.kit.env.sandbox);
    let release!: () => void;
    held.walk = new Promise<void>((resolve) => (release = resolve));
    try {
      // Willing to wait a minute for the build: the walk it waits for is still going, so it does not.
      const answer = await index.search('otters', 3, () => true, 60_000);
      expect(answer).toMatchObject({ complete: false, state: 'building', hits: [] });
    } finally {
      held.walk = undefined;
      release();
    }
    // Once walked, a workspace this small is indexed whole within the wait.
    const whole = await index.search('otters', 3, () => true, 60_000);
    expect(whole).toMatchObject({ complete: true });
    expect(whole.hits.map((hit) => hit.file)).toEqual(['note.md']);
  });
});
