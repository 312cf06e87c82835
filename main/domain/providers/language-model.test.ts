import { generateText } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { providerSettingsSchema } from '../../../shared/settings';
import type { ProviderKind } from '../../../shared/settings';
import { createLanguageModel } from './language-model';
import { detectOllama } from './ollama';

const settingsFor = (kind: ProviderKind) =>
  providerSettingsSchema.parse({ kind, model: 'm', baseUrl: 'http://127.0.0.1:9/v1' });

describe('provider requests go through the fetch the front door hands in', () => {
  it.each(['openai', 'anthropic', 'ollama', 'openai-compatible'] as const)('%s', async (kind) => {
    // The desktop app hands Electron's net.fetch (system proxy, OS certificates); here a fake.
    const fetch = vi.fn((_input: unknown, _init?: unknown) => Promise.reject(new Error('offline in the test')));
    const model = await createLanguageModel(settingsFor(kind), 'sk-test', fetch);
    if (!model.ok) throw new Error(model.error.message);
    await expect(generateText({ model: model.value, prompt: 'hi', maxRetries: 0 })).rejects.toThrow();
    expect(fetch).toHaveBeenCalled();
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/^http:\/\/127\.0\.0\.1:9\/v1\//);
  });

  it('and so does the Ollama detection', async () => {
    const fetch = vi.fn(() => Promise.resolve(Response.json({ models: [{ name: 'llama3' }] })));
    const found = await detectOllama('http://127.0.0.1:9', 1000, fetch);
    expect(found).toMatchObject({ running: true, models: [{ name: 'llama3' }] });
    expect(fetch).toHaveBeenCalledWith('http://127.0.0.1:9/api/tags', expect.anything());
  });
});
