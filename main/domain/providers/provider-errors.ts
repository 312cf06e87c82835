import { messageOf } from '../../../shared/errors';
import { APICallError, LoadAPIKeyError, RetryError } from 'ai';
import type { TurnError } from '../../../shared/ipc/chat';
import { redactSecrets } from '../../platform/secrets/redact';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const CONTEXT_PATTERNS = [
  /context[_ ]length/i,
  /maximum context/i,
  /context window/i,
  /prompt is too long/i,
  /too many tokens/i,
  /input is too long/i,
  /exceeds? (the )?(model'?s? )?(max(imum)? )?(context|token)/i,
];

/** Seconds to wait, from Retry-After (seconds or an HTTP date) or retry-after-ms. */
export function retryAfterSeconds(
  headers: Readonly<Record<string, string>> | undefined,
  now = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The provider's own words, from the JSON error body both protocols send, else the SDK message. */
function providerMessage(error: APICallError): { message: string; code?: string } {
  const data = error.data as { error?: { message?: unknown; code?: unknown; type?: unknown } } | undefined;
  const inner = data?.error;
  const message = typeof inner?.message === 'string' ? inner.message : error.message;
  const code = typeof inner?.code === 'string' ? inner.code : typeof inner?.type === 'string' ? inner.type : undefined;
  return code === undefined ? { message } : { message, code };
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function fromApiCallError(error: APICallError, model: string): TurnError {
  const status = error.statusCode;
  const { message, code } = providerMessage(error);
  const said = message.trim() === '' ? '' : ` The provider said: ${message.trim()}`;
  const withStatus = (turnError: TurnError): TurnError => (status === undefined ? turnError : { ...turnError, status });
  if (status === undefined) {
    const network = causeCode(error);
    return {
      code: 'network_error',
      message: `Could not reach the model server${network === undefined ? '' : ` (${network})`}. Check that it is running and the base URL is right.`,
      retryable: true,
    };
  }
  if (status === 401 || status === 403) {
    return withStatus({
      code: 'auth_failed',
      message: `The API key was rejected (${status}). Check it in Settings.${said}`,
      retryable: false,
    });
  }
  if (status === 429) {
    if (code === 'insufficient_quota') {
      return withStatus({ code: 'provider_error', message: `The account has no quota left.${said}`, retryable: false });
    }
    const wait = retryAfterSeconds(error.responseHeaders);
    return withStatus({
      code: 'provider_rate_limited',
      message: `The provider is rate limiting requests${wait === undefined ? '' : `; try again in ${wait} s`}.${said}`,
      retryable: true,
      ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
    });
  }
  if (CONTEXT_PATTERNS.some((pattern) => pattern.test(message)) || code === 'context_length_exceeded') {
    return withStatus({
      code: 'context_too_long',
      message: `The conversation is too long for this model's context window. Start a new conversation or lower the context window in Settings.${said}`,
      retryable: false,
    });
  }
  if (status === 404) {
    return /model/i.test(message) || code === 'model_not_found' || code === 'not_found_error'
      ? withStatus({ code: 'model_not_found', message: `The model "${model}" was not found.${said}`, retryable: false })
      : withStatus({
          code: 'provider_error',
          message: `The server has no such endpoint (404): check the base URL.${said}`,
          retryable: false,
        });
  }
  return withStatus({
    code: 'provider_error',
    message: `The model server answered with an error (${status}).${said}`,
    retryable: status >= 500 || error.isRetryable,
  });
}

/**
 * Maps whatever the AI SDK throws or streams as an error to a typed, readable TurnError. Messages are
 * scrubbed of `secrets` (providers echo keys back) and capped.
 */
export function toTurnError(error: unknown, model: string, secrets: readonly string[]): TurnError {
  const mapped = mapError(error, model);
  return { ...mapped, message: redactSecrets(mapped.message, secrets).slice(0, 1000) };
}

function mapError(error: unknown, model: string): TurnError {
  if (RetryError.isInstance(error)) return mapError(error.lastError, model);
  if (APICallError.isInstance(error)) return fromApiCallError(error, model);
  if (LoadAPIKeyError.isInstance(error)) {
    return { code: 'provider_not_configured', message: 'No API key is saved for this provider.', retryable: false };
  }
  const network = causeCode(error);
  if (network !== undefined || (error instanceof TypeError && /fetch failed/i.test(error.message))) {
    return {
      code: 'network_error',
      message: `Could not reach the model server${network === undefined ? '' : ` (${network})`}.`,
      retryable: true,
    };
  }
  // A provider's error event in the middle of a stream arrives as its parsed JSON body.
  if (typeof error === 'object' && error !== null && 'error' in error) {
    const inner = (error as { error?: { type?: unknown; message?: unknown } }).error;
    const type = typeof inner?.type === 'string' ? inner.type : 'error';
    const message = typeof inner?.message === 'string' ? inner.message : 'unknown error';
    if (type === 'rate_limit_error') return { code: 'provider_rate_limited', message, retryable: true };
    return { code: 'provider_error', message: `The model stream failed (${type}): ${message}`, retryable: true };
  }
  const message = messageOf(error);
  return { code: 'provider_error', message: `The model request failed: ${message}`, retryable: true };
}
