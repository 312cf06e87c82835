import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedEmbeddingsServer } from '../../../e2e/fixtures/scripted-embeddings-server';
import { createEmbedder } from '../../domain/providers/embedding-model';
import { keepHeapNearLive } from '../../platform/heap/heap-release';
import { providerAt } from '../../test-support/provider-at';
import { useTempDirs } from '../../test-support/temp-dir';
import { createToolKit } from '../../test-support/tool-kit';
import { fileSemanticSearchTool } from '../file-semantic-search';
import { searchInCodeTool } from '../search-in-code';

const tempDir = useTempDirs();
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const closer of open.splice(0).reverse()) await closer.close();
});

describe('the heap held near what is live while builds run (tool services)', () => {
  it('holds it through a semantic embedding pass that a second query scans beside, and through a trigram build', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The query's own vector comes at once; the passages' wait at the gate.
    const embeddings = await startScriptedEmbeddingsServer({
      vectorOf: () => [1, 0, 0],
      models: ['toy-embed'],
      hold: (inputs) => (inputs.length === 1 && inputs[0] === 'cat' ? undefined : gate),
    });
    open.push(embeddings);
    const flags: string[] = [];
    keepHeapNearLive((flag) => flags.push(flag));
    const growing = () => flags.filter((flag) => flag.startsWith('--heap-growing-percent'));
    const held = () => growing().at(-1);
    const kit = await createToolKit(tempDir, {
      embedder: () => createEmbedder(providerAt('openai-compatible', embeddings.url), 'toy-embed', undefined),
    });
    open.push({ close: () => kit.dispose() });
    for (const name of ['a', 'b', 'c']) await writeFile(join(kit.workspace, `${name}.md`), `cat ${name}\n`);
    const first = await kit.call(fileSemanticSearchTool, { query: 'cat', top_k: 3 });
    expect(first.ok && first.value.state).toBe('building');
    // A second query scans again (its scan ends) while the pass still waits at the gate.
    const second = await kit.call(fileSemanticSearchTool, { query: 'cat', top_k: 3 });
    expect(second.ok && second.value.state).toBe('building');
    expect(held()).toBe('--heap-growing-percent=20');
    release();
    let answer = await kit.call(fileSemanticSearchTool, { query: 'cat', top_k: 3 });
    while (answer.ok && answer.value.state === 'building') {
      answer = await kit.call(fileSemanticSearchTool, { query: 'cat', top_k: 3 });
    }
    expect(held()).toBe('--heap-growing-percent=0');
    // The trigram index's build holds it too, and lets go once built.
    const before = growing().length;
    const searched = await kit.call(searchInCodeTool, { query: 'cat' });
    expect(searched.ok).toBe(true);
    const trigram = kit.services.ngramIndexes.for(kit.env.workspaceRoot);
    trigram.ready(kit.env.sandbox);
    expect((await trigram.settled()).state).toBe('ready');
    expect(growing().slice(before)).toEqual(['--heap-growing-percent=20', '--heap-growing-percent=0']);
  });
});
