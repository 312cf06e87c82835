import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedEmbeddingsServer } from '../../e2e/fixtures/scripted-embeddings-server';
import type { ScriptedEmbeddingsServer } from '../../e2e/fixtures/scripted-embeddings-server';
import type { ProviderSettings } from '../../shared/settings';
import { createEmbedder } from '../domain/providers/embedding-model';
import type { IndexStatus } from '../domain/search/index-status';
import { useTempDirs } from '../test-support/temp-dir';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit, ToolKitOptions } from '../test-support/tool-kit';
import { fileSemanticSearchTool } from './file-semantic-search';
import type { SemanticSearchOutput } from './file-semantic-search';

/**
 * file_semantic_search on its persistent store: hybrid ranking through a real embeddings server
 * (OpenAI's and Ollama's protocols), vectors cached by passage, and a restart (a new kit on the same
 * Familiar home and workspace) that answers from the saved index without reading the files again.
 */
const tempDir = useTempDirs();
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

// Three concepts; a text's vector counts its words of each. "cat" is a pet word.
const concepts = [
  ['cat', 'feline', 'kitten', 'purr', 'whiskers'],
  ['apple', 'tree', 'soil', 'seed', 'garden'],
  ['price', 'cost', 'money', 'invoice', 'budget'],
];
const vectorOf = (text: string) => {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return concepts.map((words_) => words.filter((word) => words_.includes(word)).length);
};

// BM25 for "cat": X (three times) > Y > Z (longer). By meaning: Y (all pet) > Z > X (mostly money).
// Fused by reciprocal rank: Y, X, Z.
const notes = {
  'x.md': 'cat cat cat price cost money invoice budget price cost money invoice budget\n',
  'y.md': 'cat feline kitten purr whiskers\n',
  'z.md': 'cat apple tree lorem ipsum dolor sit amet consectetur adipiscing\n',
};

async function server(): Promise<ScriptedEmbeddingsServer> {
  const started = await startScriptedEmbeddingsServer({ vectorOf, models: ['toy-embed'] });
  open.push(started);
  return started;
}

const provider = (kind: ProviderSettings['kind'], url: string): ProviderSettings => ({
  kind,
  model: 'chat-model',
  baseUrl: `${url}/v1`,
  maxSteps: 20,
  contextWindow: 128_000,
});

async function kitWith(options: ToolKitOptions): Promise<ToolKit> {
  const made = await createToolKit(tempDir, options);
  let closing: Promise<void> | undefined;
  const kit = { ...made, dispose: () => (closing ??= made.dispose()) };
  open.push({ close: kit.dispose });
  return kit;
}

const embedderFor =
  (kind: ProviderSettings['kind'], url: string, model = 'toy-embed') =>
  () =>
    createEmbedder(provider(kind, url), model, undefined);

async function search(kit: ToolKit, query: string): Promise<SemanticSearchOutput> {
  const result = await kit.call(fileSemanticSearchTool, { query, top_k: 3 });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function writeNotes(kit: ToolKit) {
  for (const [name, text] of Object.entries(notes)) await writeFile(join(kit.workspace, name), text);
}

describe('file_semantic_search on the persistent store', () => {
  it('ranks by BM25 alone without an embedding model, and says so', async () => {
    const kit = await kitWith({});
    await writeNotes(kit);
    const found = await search(kit, 'cat');
    expect(found.ranking).toBe('bm25');
    expect(found.notice).toMatch(/BM25.*no embedding model/);
    expect(found.results.map((hit) => hit.file)).toEqual(['x.md', 'y.md', 'z.md']);
  });

  it.each(['openai-compatible', 'ollama'] as const)(
    'fuses BM25 with vectors from a %s embeddings server (reciprocal rank fusion changes the order)',
    async (kind) => {
      const embeddings = await server();
      const kit = await kitWith({ embedder: embedderFor(kind, embeddings.url) });
      await writeNotes(kit);
      const found = await search(kit, 'cat');
      expect(found.ranking).toBe('hybrid');
      expect(found.notice).toBeUndefined();
      expect(found.results.map((hit) => hit.file)).toEqual(['y.md', 'x.md', 'z.md']);
      expect(found.index).toMatchObject({ embedded_passages: 3, passages: 3 });
      expect(new Set(embeddings.requests.map((request) => request.protocol))).toEqual(
        new Set([kind === 'ollama' ? 'ollama' : 'openai']),
      );
      expect(embeddings.requests.every((request) => request.model === 'toy-embed')).toBe(true);
    },
  );

  it('never sends the passages of concealed files (memory while memory is off) to the embeddings server', async () => {
    const embeddings = await server();
    const kit = await kitWith({
      embedder: embedderFor('openai-compatible', embeddings.url),
      isConcealed: (path) => path === 'private.md',
    });
    await writeNotes(kit);
    await writeFile(join(kit.workspace, 'private.md'), 'cat private kitten diary\n');
    const found = await search(kit, 'cat');
    expect(found.ranking).toBe('hybrid');
    expect(found.results.map((hit) => hit.file)).not.toContain('private.md');
    expect(embeddings.inputs().some((text) => text.includes('diary'))).toBe(false);
    expect(embeddings.inputs()).toHaveLength(4); // three notes and the query
  });

  it('falls back to BM25, saying why, when the embedding model is unknown to the server', async () => {
    const embeddings = await server();
    const kit = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url, 'no-such-model') });
    await writeNotes(kit);
    const found = await search(kit, 'cat');
    expect(found.ranking).toBe('bm25');
    expect(found.notice).toMatch(/embedding the query failed.*no-such-model/);
    expect(found.results.map((hit) => hit.file)).toEqual(['x.md', 'y.md', 'z.md']);
  });

  it('reopens after a restart without reading unchanged files or embedding unchanged passages again', async () => {
    const embeddings = await server();
    const first = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url) });
    await writeNotes(first);
    expect((await search(first, 'cat')).index.files_read).toBeGreaterThanOrEqual(3);
    await first.dispose();
    expect(embeddings.inputs().sort()).toEqual([...Object.values(notes).map((text) => text.trim()), 'cat'].sort());

    // A restart: new services, index and cache objects, the same home and workspace.
    embeddings.requests.length = 0;
    const second = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url), reuseRootOf: first });
    const again = await search(second, 'cat');
    expect(again.results.map((hit) => hit.file)).toEqual(['y.md', 'x.md', 'z.md']);
    expect(again.index.files_read).toBe(0);
    expect(again.index.files_found).toBe(3);
    expect(embeddings.inputs()).toEqual(['cat']); // the query only: every passage's vector was cached
    await second.dispose();

    // One file changed while the app was closed: only it is read and embedded again.
    embeddings.requests.length = 0;
    const changed = 'cat whiskers purr garden\n';
    await writeFile(join(first.workspace, 'z.md'), changed);
    await utimes(join(first.workspace, 'z.md'), new Date(), new Date(Date.now() + 5000));
    const third = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url), reuseRootOf: first });
    const fresh = await search(third, 'whiskers garden');
    expect(fresh.results[0]?.file).toBe('z.md');
    expect(fresh.index.files_read).toBe(1);
    expect(embeddings.inputs()).toEqual([changed.trim(), 'whiskers garden']);
  });

  it('reports its progress while it builds, and files read per query', async () => {
    const statuses: IndexStatus[] = [];
    const kit = await kitWith({});
    await writeNotes(kit);
    kit.services.searchIndexes.onStatus((status) => statuses.push(status));
    const found = await search(kit, 'cat');
    expect(found.index).toMatchObject({ state: 'ready', files_found: 3, files_checked: 3, files_read: 3 });
    expect(statuses.some((status) => status.state === 'scanning' && status.filesFound === 3)).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: 'ready', files: 3 });
  });
});
