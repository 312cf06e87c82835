import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedEmbeddingsServer } from '../../e2e/fixtures/scripted-embeddings-server';
import type {
  ScriptedEmbeddingsOptions,
  ScriptedEmbeddingsServer,
} from '../../e2e/fixtures/scripted-embeddings-server';
import type { ProviderSettings } from '../../shared/settings';
import { createEmbedder } from '../domain/providers/embedding-model';
import type { IndexStatus } from '../domain/search/index-status';
import { providerAt } from '../test-support/provider-at';
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

async function server(hold?: ScriptedEmbeddingsOptions['hold']): Promise<ScriptedEmbeddingsServer> {
  const started = await startScriptedEmbeddingsServer({ vectorOf, models: ['toy-embed'], ...(hold ? { hold } : {}) });
  open.push(started);
  return started;
}

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
    createEmbedder(providerAt(kind, url), model, undefined);

async function search(kit: ToolKit, query: string): Promise<SemanticSearchOutput> {
  const result = await kit.call(fileSemanticSearchTool, { query, top_k: 3 });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/**
 * Searches until the answer covers the whole build: a query answers within a second whatever the
 * build is doing (state 'building'), so on a slow machine the first answer may come before the vectors.
 */
async function searchReady(kit: ToolKit, query: string): Promise<SemanticSearchOutput> {
  let found = await search(kit, query);
  while (found.state === 'building') found = await search(kit, query);
  return found;
}

/** What the server embedded apart from the queries. */
const passagesSent = (embeddings: ScriptedEmbeddingsServer, ...queries: string[]) =>
  embeddings.inputs().filter((text) => !queries.includes(text));

async function writeNotes(kit: ToolKit) {
  for (const [name, text] of Object.entries(notes)) await writeFile(join(kit.workspace, name), text);
}

describe('file_semantic_search on the persistent store', () => {
  it('ranks by BM25 alone without an embedding model, and says so', async () => {
    const kit = await kitWith({});
    await writeNotes(kit);
    const found = await searchReady(kit, 'cat');
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
      const found = await searchReady(kit, 'cat');
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
    const found = await searchReady(kit, 'cat');
    expect(found.ranking).toBe('hybrid');
    expect(found.results.map((hit) => hit.file)).not.toContain('private.md');
    expect(embeddings.inputs().some((text) => text.includes('diary'))).toBe(false);
    expect(passagesSent(embeddings, 'cat')).toHaveLength(3); // the three notes
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
    expect((await searchReady(first, 'cat')).index.files_read).toBeGreaterThanOrEqual(3);
    await first.dispose();
    expect(passagesSent(embeddings, 'cat').sort()).toEqual(
      Object.values(notes)
        .map((text) => text.trim())
        .sort(),
    );

    // A restart: new services, index and cache objects, the same home and workspace.
    embeddings.requests.length = 0;
    const second = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url), reuseRootOf: first });
    const again = await searchReady(second, 'cat');
    expect(again.results.map((hit) => hit.file)).toEqual(['y.md', 'x.md', 'z.md']);
    expect(again.index.files_read).toBe(0);
    expect(again.index.files_found).toBe(3);
    expect(passagesSent(embeddings, 'cat')).toEqual([]); // the query only: every passage's vector was cached
    await second.dispose();

    // One file changed while the app was closed: only it is read and embedded again.
    embeddings.requests.length = 0;
    const changed = 'cat whiskers purr garden\n';
    await writeFile(join(first.workspace, 'z.md'), changed);
    await utimes(join(first.workspace, 'z.md'), new Date(), new Date(Date.now() + 5000));
    const third = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url), reuseRootOf: first });
    const fresh = await searchReady(third, 'whiskers garden');
    expect(fresh.results[0]?.file).toBe('z.md');
    expect(fresh.index.files_read).toBe(1);
    expect(passagesSent(embeddings, 'whiskers garden')).toEqual([changed.trim()]);
  });

  it('reports its progress while it builds, and files read per query', async () => {
    const statuses: IndexStatus[] = [];
    const kit = await kitWith({});
    await writeNotes(kit);
    kit.services.searchIndexes.onStatus((status) => statuses.push(status));
    const found = await searchReady(kit, 'cat');
    expect(found.index).toMatchObject({ state: 'ready', files_found: 3, files_checked: 3, files_read: 3 });
    expect(statuses.some((status) => status.state === 'scanning' && status.filesFound === 3)).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: 'ready', files: 3 });
  });

  // Without waiting: the answer comes while the gate holds every batch (the old query waited 10 s).
  it(
    'answers a query during the build from what is embedded, saying it is building, without waiting for it',
    { timeout: 5000 },
    async () => {
      // Every batch of passages waits for the gate; the queries go through.
      let open_ = () => undefined as void;
      const gate = new Promise<void>((resolve) => (open_ = resolve));
      const embeddings = await server((inputs) => (inputs.length === 1 && inputs[0] === 'cat' ? undefined : gate));
      const kit = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url) });
      await writeNotes(kit);
      const during = await search(kit, 'cat');
      expect(during).toMatchObject({ state: 'building', ranking: 'hybrid' });
      expect(during.coverage).toEqual({ files_indexed: 3, files_found: 3, passages_embedded: 0, passages: 3 });
      expect(during.results.map((hit) => hit.file).sort()).toEqual(['x.md', 'y.md', 'z.md']); // by words so far
      expect(during.notice).toMatch(/0 of 3 passages/);
      open_();
      const after = await searchReady(kit, 'cat');
      expect(after.coverage).toMatchObject({ passages_embedded: 3, passages: 3 });
      expect(after.results.map((hit) => hit.file)).toEqual(['y.md', 'x.md', 'z.md']);
    },
  );

  it('resumes an interrupted build after a restart: passages embedded before it are never sent again', async () => {
    // 80 one-passage notes: batches of 32, 32 and 16. The first batch is answered, the second held.
    const texts = Array.from({ length: 80 }, (_, n) => `cat note ${n} kitten ${'purr '.repeat(n % 5)}`.trim());
    let batches = 0;
    let holding = true;
    let secondSeen = () => undefined as void;
    const second = new Promise<void>((resolve) => (secondSeen = resolve));
    const never = new Promise<void>(() => undefined);
    const isQuery = (inputs: readonly string[]) => inputs.length === 1 && inputs[0] === 'cat';
    const embeddings = await server((inputs) => {
      if (isQuery(inputs)) return undefined;
      batches += 1;
      if (batches === 1 || !holding) return undefined;
      secondSeen();
      return never;
    });
    const first = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url) });
    for (const [n, text] of texts.entries()) await writeFile(join(first.workspace, `note-${n}.md`), `${text}\n`);
    expect((await search(first, 'cat')).state).toBe('building');
    await second; // the first batch's vectors are on disk before the second batch is sent
    const answered = embeddings.requests.filter((request) => !isQuery(request.inputs))[0]?.inputs ?? [];
    expect(answered).toHaveLength(32);
    // A restart as after a crash: the first app is not closed (nothing saved at exit), its batch held.

    embeddings.requests.length = 0;
    holding = false; // after the restart every batch is answered
    const restarted = await kitWith({ embedder: embedderFor('openai-compatible', embeddings.url), reuseRootOf: first });
    const found = await searchReady(restarted, 'cat');
    expect(found.coverage).toMatchObject({ files_indexed: 80, passages_embedded: 80, passages: 80 });
    const sentAgain = embeddings.requests.filter((request) => !isQuery(request.inputs)).flatMap((r) => r.inputs);
    expect(sentAgain.filter((text) => answered.includes(text))).toEqual([]);
    expect(sentAgain.sort()).toEqual(texts.filter((text) => !answered.includes(text)).sort());
  });
});
