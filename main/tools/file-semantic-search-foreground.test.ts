import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { useToolCallsKits } from '../test-support/use-tool-kits';
import { fileSemanticSearchTool } from './file-semantic-search';
import { createToolCallsKit } from '../test-support/tool-calls-kit';
import type { WorkspaceIndex } from '../domain/search/workspace-index';

const { tempDir } = useToolCallsKits();

/** More files than one batch of the scan (32): the build has a step between two batches. */
const FILES = 200;

/**
 * Starts the index's build while another tool's call runs: the build reaches the gate and stays
 * there (`held` checks how far it got), then goes on once the call is over. Returns the index, built.
 */
async function buildDuringCall(
  kit: Awaited<ReturnType<typeof createToolCallsKit>>,
  held: (status: ReturnType<WorkspaceIndex['status']>) => void,
): Promise<WorkspaceIndex> {
  const index = kit.kit.services.searchIndexes.for(kit.kit.env.sandbox);
  const gate = kit.kit.services.foreground;
  const release = gate.enter();
  let built = false;
  const build = index.refresh().then(() => (built = true));
  await vi.waitFor(() => expect(gate.waiting).toBe(1), { timeout: 5000, interval: 10 });
  await sleep(200);
  expect([built, gate.waiting]).toEqual([false, 1]);
  held(index.status());
  release();
  await build;
  return index;
}

describe('the semantic index build and other tool calls (issue 32 item 1)', () => {
  it('pauses between two batches while a call runs, and goes on once it is over', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    const root = kit.kit.workspace;
    for (let i = 0; i < FILES; i += 1) await writeFile(join(root, `note-${i}.md`), `Note ${i} about otters.\n`);
    // One batch read (32 files), then the build waits at the gate, and stays there.
    const index = await buildDuringCall(kit, (status) => expect(status.filesChecked).toBe(32));
    expect(index.status()).toMatchObject({ files: FILES, filesChecked: FILES });
  });

  it('pauses inside a big file’s counting too while a call runs (one file, no step between batches)', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    // About 800 KB (under the 1 MB a file may have to be indexed): counting it takes many slices.
    const paragraph = (n: number) => `Paragraph ${n} tells of otters, harbours and lighthouse keepers.`;
    await writeFile(
      join(kit.kit.workspace, 'big.md'),
      Array.from({ length: 12_000 }, (_, n) => paragraph(n)).join('\n\n'),
    );
    const index = await buildDuringCall(kit, (status) => expect(status.files).toBe(0));
    expect(index.status()).toMatchObject({ files: 1 });
  });

  it('does not pause for a call whose query waits for this very build (a small workspace answers whole)', async () => {
    const kit = await createToolCallsKit(tempDir, [fileSemanticSearchTool]);
    const root = kit.kit.workspace;
    // Three batches: small enough to be indexed well within the query's wait on a busy machine.
    const files = 80;
    for (let i = 0; i < files; i += 1) await writeFile(join(root, `note-${i}.md`), `Note ${i} about otters.\n`);
    // The query's own call holds the gate (run.ts): its wait for the build must not stall the build.
    const result = await kit.call('file_semantic_search', { query: 'otters', top_k: 3 });
    expect(result).toMatchObject({ ok: true, value: { complete: true, indexed_files: files } });
  });
});
