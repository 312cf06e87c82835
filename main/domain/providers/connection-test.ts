import { streamText } from 'ai';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ProviderSettings } from '../../../shared/settings';
import { createLanguageModel } from './language-model';
import type { ProviderFetch } from './language-model';
import { toTurnError } from './provider-errors';

export interface ConnectionTestResult {
  readonly model: string;
  readonly latencyMs: number;
  readonly sample: string;
}

/**
 * Proves a provider works the way a turn will use it: the same client streams a tiny reply and
 * the request is cut at the first token (so it costs a handful of tokens). Failures come back with
 * the same typed codes as a turn.
 */
export async function testConnection(
  settings: ProviderSettings,
  apiKey: string | undefined,
  secrets: readonly string[],
  timeoutMs = 30_000,
  fetch?: ProviderFetch,
): Promise<Result<ConnectionTestResult>> {
  const model = await createLanguageModel(settings, apiKey, fetch);
  if (!model.ok) return model;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('timeout'), timeoutMs);
  const started = performance.now();
  let sample = '';
  try {
    const result = streamText({
      model: model.value,
      messages: [{ role: 'user', content: 'Reply with the single word: ready' }],
      maxRetries: 0,
      abortSignal: controller.signal,
      onError: () => undefined,
    });
    for await (const part of result.stream) {
      if (part.type === 'error') {
        const error = toTurnError(part.error, settings.model, secrets);
        return err(error.code, error.message, {
          retryable: error.retryable,
          ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
          ...(error.status === undefined ? {} : { status: error.status }),
        });
      }
      if (part.type === 'abort') break;
      if (part.type === 'text-delta') sample += part.text;
      // Any sign of a reply (text, reasoning, even a finish) proves the model answered.
      if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'finish') {
        const latencyMs = Math.round(performance.now() - started);
        controller.abort('answered');
        return ok({ model: settings.model, latencyMs, sample: sample.trim() });
      }
    }
    return err('network_error', `The model server did not answer within ${Math.round(timeoutMs / 1000)} s.`, {
      retryable: true,
    });
  } catch (error) {
    const mapped = toTurnError(error, settings.model, secrets);
    return err(mapped.code, mapped.message, { retryable: mapped.retryable });
  } finally {
    clearTimeout(timer);
  }
}
