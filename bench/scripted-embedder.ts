import { createEmbedder } from '../main/domain/providers/embedding-model';

/**
 * The embedder the semantic benches hand to the tool services: an OpenAI-compatible client of the
 * scripted embeddings server at `serverUrl` (Familiar's own costs, not a real model's).
 */
export function scriptedEmbedder(serverUrl: string) {
  return () =>
    createEmbedder(
      { kind: 'openai-compatible', model: 'x', baseUrl: `${serverUrl}/v1`, maxSteps: 1, contextWindow: 128_000 },
      'bench-embed',
      undefined,
    );
}
