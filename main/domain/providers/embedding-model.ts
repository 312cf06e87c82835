import type { EmbeddingModel } from 'ai';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ProviderSettings } from '../../../shared/settings';
import { defaultBaseUrls, loadProviderSdks, needsApiKey } from './language-model';
import type { ProviderFetch } from './language-model';

/** Turns texts into vectors with one embedding model of the configured provider. */
export interface Embedder {
  /** The model and the server it runs on: vectors of different ones are never mixed. */
  readonly key: string;
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

/**
 * How long one embedding request may take. A server that takes the request and never answers would
 * otherwise hold the embedding pass for good: queries would say "building" for ever, and the heap a
 * build grows would never be given back (HeapRelease waits for every build to end).
 */
const EMBED_TIMEOUT_MS = 120_000;

/** `signal`, or the request's own time running out, whichever comes first. */
const withTimeout = (signal: AbortSignal | undefined, ms: number): AbortSignal =>
  signal === undefined ? AbortSignal.timeout(ms) : AbortSignal.any([signal, AbortSignal.timeout(ms)]);

/**
 * The embedding model `model` on the configured provider: OpenAI and OpenAI-compatible servers
 * through the AI SDK (`POST {baseUrl}/embeddings`), Ollama through its own `POST /api/embed` (its
 * OpenAI-compatible /v1 has embeddings too, but /api/embed is the one every Ollama version has and
 * truncates over-long inputs instead of failing). Anthropic offers no embeddings.
 */
export function createEmbedder(
  settings: ProviderSettings,
  model: string,
  apiKey: string | undefined,
  fetch: ProviderFetch = globalThis.fetch,
  timeoutMs = EMBED_TIMEOUT_MS,
): Result<Embedder> {
  const made = embedderOn(settings, model, apiKey, fetch);
  if (!made.ok) return made;
  const embedder = made.value;
  return ok({ ...embedder, embed: (texts, signal) => embedder.embed(texts, withTimeout(signal, timeoutMs)) });
}

function embedderOn(
  settings: ProviderSettings,
  model: string,
  apiKey: string | undefined,
  fetch: ProviderFetch,
): Result<Embedder> {
  const baseURL = (settings.baseUrl ?? defaultBaseUrls[settings.kind])?.replace(/\/+$/, '');
  if (baseURL === undefined) return err('provider_not_configured', 'The provider has no base URL.');
  if (needsApiKey(settings.kind) && (apiKey === undefined || apiKey === '')) {
    return err('provider_not_configured', `No API key is saved for ${settings.kind}.`);
  }
  const key = `${settings.kind} ${baseURL} ${model}`;
  switch (settings.kind) {
    case 'anthropic':
      return err('provider_not_configured', 'Anthropic offers no embedding models.');
    case 'ollama':
      return ok({ key, model, embed: (texts, signal) => ollamaEmbed(fetch, baseURL, model, texts, signal) });
    case 'openai':
    case 'openai-compatible': {
      // Made with the first texts to embed: the provider packages load then (language-model.ts).
      let made: Promise<EmbeddingModel> | undefined;
      const embeddingModel = async (): Promise<EmbeddingModel> => {
        const { createOpenAI, createOpenAICompatible } = await loadProviderSdks();
        const provider =
          settings.kind === 'openai'
            ? createOpenAI({ baseURL, apiKey: apiKey ?? '', fetch })
            : createOpenAICompatible({
                name: settings.kind,
                baseURL,
                ...(apiKey === undefined ? {} : { apiKey }),
                fetch,
              });
        return provider.embeddingModel(model);
      };
      return ok({
        key,
        model,
        embed: async (texts, signal) => {
          const { embedMany } = await import('ai');
          const { embeddings } = await embedMany({
            model: await (made ??= embeddingModel()),
            values: [...texts],
            maxRetries: 1,
            ...(signal === undefined ? {} : { abortSignal: signal }),
          });
          return embeddings;
        },
      });
    }
  }
}

async function ollamaEmbed(
  fetch: ProviderFetch,
  baseURL: string,
  model: string,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  // The provider's base URL is Ollama's OpenAI-compatible one (…/v1); the native API sits beside it.
  const root = baseURL.replace(/\/v1$/, '');
  const response = await fetch(`${root}/api/embed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, input: texts }),
    ...(signal === undefined ? {} : { signal }),
  });
  if (!response.ok) throw new Error(`Ollama /api/embed answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { embeddings?: unknown };
  const embeddings = body.embeddings;
  if (
    !Array.isArray(embeddings) ||
    embeddings.length !== texts.length ||
    !embeddings.every((row) => Array.isArray(row) && row.every((value) => typeof value === 'number'))
  ) {
    throw new Error('Ollama /api/embed answered without one vector per input.');
  }
  return embeddings;
}
