import type { ProviderSettings } from '../../shared/settings';

/** Provider settings of `kind` whose server is a test's scripted one at `origin` (its `/v1` API). */
export const providerAt = (kind: ProviderSettings['kind'], origin: string): ProviderSettings => ({
  kind,
  model: 'chat-model',
  baseUrl: `${origin}/v1`,
  maxSteps: 20,
  contextWindow: 128_000,
});
