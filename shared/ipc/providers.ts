import { z } from 'zod';
import { providerSettingsSchema } from '../settings';
import { defineCall } from './define';

/**
 * Provider setup. API keys go in (write-only) and never come back: outputs only say `hasApiKey`.
 * The provider settings themselves live in settings.json (`settings.provider`), so saving here also
 * emits `settings.changed`.
 */

/**
 * Where saved API keys live: 'encrypted' = the OS keychain through Electron safeStorage (desktop);
 * 'plaintext-file' = <home>/secrets.json readable only by the user (0600) — browser mode, or a
 * desktop without a usable keychain. The UI should warn about the latter.
 */
export const keyStorageSchema = z.enum(['encrypted', 'plaintext-file']);
export type KeyStorage = z.infer<typeof keyStorageSchema>;

/** An API key as the user typed it (trimmed, never empty). */
export const apiKeySchema = z.string().trim().min(1).max(1000);
/** What a save does to the saved key: a string saves it, null deletes it, absent keeps the saved one. */
const apiKeyChangeSchema = apiKeySchema.nullable().optional();

/**
 * The input of a save that comes with a write-only key (a provider, a search service): the
 * settings to keep, and `apiKey` as apiKeyChangeSchema says. One shape, so both saves treat keys alike.
 */
export const saveWithKeyInput = <Shape extends z.ZodRawShape>(settings: Shape) =>
  z.object({ ...settings, apiKey: apiKeyChangeSchema }).strict();

export const providerStatusSchema = z.object({
  provider: providerSettingsSchema.nullable(),
  /** A key is saved for the configured provider's kind. */
  hasApiKey: z.boolean(),
  /** The configured kind needs a key (openai, anthropic); Ollama and compatible servers may not. */
  needsApiKey: z.boolean(),
  /** True when a chat can start: a provider is set and, if it needs one, a key is saved. */
  configured: z.boolean(),
  keyStorage: keyStorageSchema,
});
export type ProviderStatus = z.infer<typeof providerStatusSchema>;

export const ollamaModelSchema = z.object({
  name: z.string(),
  sizeBytes: z.number().nonnegative().optional(),
  parameterSize: z.string().optional(),
  family: z.string().optional(),
  /** Ollama said whether the model takes images (its capabilities); absent when it did not say. */
  vision: z.boolean().optional(),
});

export const providersCalls = {
  'providers.status': defineCall(z.object({}).strict(), providerStatusSchema),
  /**
   * Saves the provider settings. `apiKey`: a string saves it for this provider kind, null deletes it,
   * absent keeps the saved one.
   */
  'providers.save': defineCall(saveWithKeyInput({ provider: providerSettingsSchema }), providerStatusSchema),
  /**
   * Streams a tiny reply from the model and stops at the first token: proves the URL, key and model.
   * Without `provider` it tests the saved settings; `apiKey` overrides the saved key for this test
   * only. Fails with the same typed codes as a turn (auth_failed, model_not_found, network_error...),
   * `details.retryAfterSeconds` for rate limits.
   */
  'providers.test': defineCall(
    z
      .object({
        provider: providerSettingsSchema.optional(),
        apiKey: apiKeySchema.optional(),
      })
      .strict(),
    z.object({ model: z.string(), latencyMs: z.number().nonnegative(), sample: z.string() }),
  ),
  /** Looks for a running Ollama (default http://127.0.0.1:11434) and lists its installed models. */
  'providers.detectOllama': defineCall(
    z.object({ baseUrl: z.url({ protocol: /^https?$/ }).optional() }).strict(),
    z.object({ running: z.boolean(), baseUrl: z.string(), models: z.array(ollamaModelSchema) }),
  ),
};
