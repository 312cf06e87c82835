import type { ProviderStatus } from '../../../shared/ipc/providers';
import { err, ok } from '../../../shared/result';
import type { Handlers } from '../../platform/ipc/dispatcher';
import { apiKeySecret } from '../../platform/secrets/secret-store';
import type { SecretStore } from '../../platform/secrets/secret-store';
import type { SettingsStore } from '../../platform/storage/settings-store';
import { needsApiKey } from './language-model';
import type { ProviderFetch } from './language-model';
import { detectOllama } from './ollama';

export type ProviderHandlers = Pick<
  Handlers,
  'providers.status' | 'providers.save' | 'providers.test' | 'providers.detectOllama'
>;

export function providerStatus(settings: SettingsStore, secrets: SecretStore): ProviderStatus {
  const provider = settings.get().provider;
  const hasApiKey = provider !== null && secrets.has(apiKeySecret(provider.kind));
  const needsKey = provider !== null && needsApiKey(provider.kind);
  const hasUrl = provider !== null && (provider.kind !== 'openai-compatible' || provider.baseUrl !== undefined);
  return {
    provider,
    hasApiKey,
    needsApiKey: needsKey,
    configured: provider !== null && hasUrl && (!needsKey || hasApiKey),
    keyStorage: secrets.keyStorage,
  };
}

export function createProviderHandlers(
  settings: SettingsStore,
  secrets: SecretStore,
  fetch?: ProviderFetch,
): ProviderHandlers {
  return {
    'providers.status': () => ok(providerStatus(settings, secrets)),
    'providers.save': async ({ provider, apiKey }) => {
      if (provider.kind === 'openai-compatible' && provider.baseUrl === undefined) {
        return err('invalid_payload', 'An OpenAI-compatible provider needs a base URL.', { field: 'provider.baseUrl' });
      }
      // The key first: settings.changed then finds the status already complete.
      if (apiKey !== undefined) await secrets.set(apiKeySecret(provider.kind), apiKey);
      await settings.update({ provider });
      return ok(providerStatus(settings, secrets));
    },
    'providers.test': async (input) => {
      const provider = input.provider ?? settings.get().provider;
      if (provider === null) return err('provider_not_configured', 'Choose a model provider first.');
      const apiKey = input.apiKey ?? secrets.get(apiKeySecret(provider.kind));
      const secretsToHide = input.apiKey === undefined ? secrets.values() : [...secrets.values(), input.apiKey];
      // The AI SDK loads with the first test or turn, not with every start (connection-test.ts).
      const { testConnection } = await import('./connection-test');
      return testConnection(provider, apiKey, secretsToHide, undefined, fetch);
    },
    'providers.detectOllama': async ({ baseUrl }) => ok(await detectOllama(baseUrl, undefined, fetch)),
  };
}
