import type { ProviderKind } from '../../../shared/settings';

/**
 * What the form shows per kind. The base URLs are only placeholders: when the field is left empty the
 * core applies its own default (main/domain/providers/language-model.ts), so these must not drift from it.
 */
export const providerKindInfo: Record<
  ProviderKind,
  {
    readonly defaultBaseUrl: string | null;
    readonly keyRequired: boolean;
    readonly keyAsked: boolean;
    readonly modelHint: string;
  }
> = {
  openai: { defaultBaseUrl: 'https://api.openai.com/v1', keyRequired: true, keyAsked: true, modelHint: 'gpt-4.1-mini' },
  anthropic: {
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    keyRequired: true,
    keyAsked: true,
    modelHint: 'claude-sonnet-4-5',
  },
  ollama: { defaultBaseUrl: 'http://127.0.0.1:11434/v1', keyRequired: false, keyAsked: false, modelHint: 'llama3.2' },
  'openai-compatible': { defaultBaseUrl: null, keyRequired: false, keyAsked: true, modelHint: 'qwen2.5-7b-instruct' },
};
