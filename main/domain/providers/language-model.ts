import type { LanguageModel } from 'ai';
import { modelTakesImages } from '../../../shared/chat-images';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ProviderKind, ProviderSettings } from '../../../shared/settings';

/** Where each kind talks to when the settings give no base URL. */
export const defaultBaseUrls: Record<ProviderKind, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  ollama: 'http://127.0.0.1:11434/v1',
  // No sensible default: LM Studio, llama.cpp, vLLM and OpenRouter all live elsewhere.
  'openai-compatible': undefined,
};

/**
 * Whether the model, as createLanguageModel builds it, can be shown a picture inside a tool result
 * (read_file on a PNG). Anthropic's API takes images in tool results. OpenAI's Chat Completions
 * and the OpenAI-compatible servers (Ollama, LM Studio, vLLM...) take text only there: the AI SDK
 * would send the picture as base64 text, so those get its facts and a sentence instead
 * (agent/model-output.ts). A model that takes no images at all (shared/chat-images.ts,
 * modelTakesImages) gets the sentence too; pictures in user messages go to every model that takes them.
 */
export const toolResultImages = (settings: Pick<ProviderSettings, 'kind' | 'model' | 'vision'>): boolean =>
  settings.kind === 'anthropic' && modelTakesImages(settings);

/** Kinds that cannot work without a key (local servers and most gateways accept none). */
export const needsApiKey = (kind: ProviderKind): boolean => kind === 'openai' || kind === 'anthropic';

/**
 * How provider requests reach the network. The desktop app passes Electron's net.fetch (Chromium's
 * stack: the system proxy, PAC, OS certificate store); browser and MCP mode and the tests use Node's.
 */
export type ProviderFetch = typeof globalThis.fetch;

/** The provider packages (provider-sdks.ts), loaded once, by the first model or embedder made. */
export const loadProviderSdks = () => import('./provider-sdks');

/**
 * Builds the AI SDK model for the settings. Base URLs are always passed explicitly so the SDK never
 * picks up OPENAI_BASE_URL / ANTHROPIC_BASE_URL, and keys only ever come from the secret store,
 * never from the environment.
 */
export async function createLanguageModel(
  settings: ProviderSettings,
  apiKey: string | undefined,
  fetch?: ProviderFetch,
): Promise<Result<LanguageModel>> {
  const baseURL = (settings.baseUrl ?? defaultBaseUrls[settings.kind])?.replace(/\/+$/, '');
  if (baseURL === undefined) {
    return err(
      'provider_not_configured',
      'An OpenAI-compatible provider needs a base URL (for example http://127.0.0.1:1234/v1).',
    );
  }
  if (needsApiKey(settings.kind) && (apiKey === undefined || apiKey === '')) {
    return err('provider_not_configured', `No API key is saved for ${settings.kind}. Add one in Settings.`);
  }
  const transport = fetch === undefined ? {} : { fetch };
  const { createAnthropic, createOpenAI, createOpenAICompatible } = await loadProviderSdks();
  switch (settings.kind) {
    case 'openai':
      // Chat Completions rather than the Responses API: the one protocol every compatible server shares.
      return ok(createOpenAI({ baseURL, apiKey: apiKey ?? '', ...transport }).chat(settings.model));
    case 'anthropic':
      return ok(createAnthropic({ baseURL, apiKey: apiKey ?? '', ...transport })(settings.model));
    case 'ollama':
    case 'openai-compatible':
      return ok(
        createOpenAICompatible({
          name: settings.kind,
          baseURL,
          ...(apiKey === undefined ? {} : { apiKey }),
          includeUsage: true,
          ...transport,
        }).chatModel(settings.model),
      );
  }
}
