import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, toTurnError } from './provider-errors';

/** An APICallError exactly as the AI SDK builds one from an HTTP error response. */
function httpError(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new APICallError({
    message: 'request failed',
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
    data: body,
    isRetryable: status === 429 || status >= 500,
  });
}

const openAiError = (message: string, code: string | null = null) => ({
  error: { message, type: 'invalid_request_error', code },
});

describe('toTurnError', () => {
  it('maps each failure to a typed, readable state with a retry verdict', () => {
    const cases: [unknown, string, boolean][] = [
      [httpError(401, openAiError('Incorrect API key provided')), 'auth_failed', false],
      [
        httpError(403, { type: 'error', error: { type: 'permission_error', message: 'no access' } }),
        'auth_failed',
        false,
      ],
      [httpError(429, openAiError('Rate limit reached', 'rate_limit_exceeded')), 'provider_rate_limited', true],
      [httpError(429, openAiError('You exceeded your current quota', 'insufficient_quota')), 'provider_error', false],
      [httpError(404, openAiError('The model `gpt-9` does not exist', 'model_not_found')), 'model_not_found', false],
      [httpError(404, { error: 'page not found' }), 'provider_error', false],
      [
        httpError(400, openAiError("This model's maximum context length is 8192 tokens", 'context_length_exceeded')),
        'context_too_long',
        false,
      ],
      [
        httpError(400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
        }),
        'context_too_long',
        false,
      ],
      [httpError(500, openAiError('boom')), 'provider_error', true],
      [
        httpError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
        'provider_error',
        true,
      ],
      [
        new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
        'network_error',
        true,
      ],
      [
        new APICallError({
          message: 'Cannot connect to API: getaddrinfo ENOTFOUND nowhere',
          url: 'x',
          requestBodyValues: {},
          cause: { code: 'ENOTFOUND' },
        }),
        'network_error',
        true,
      ],
      [{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'provider_error', true],
      [new Error('something odd'), 'provider_error', true],
    ];
    for (const [error, code, retryable] of cases) {
      expect(toTurnError(error, 'gpt-9', []), code).toMatchObject({ code, retryable });
    }
  });

  it('reads the wait from Retry-After and keeps the HTTP status', () => {
    const limited = toTurnError(httpError(429, openAiError('slow down'), { 'retry-after': '12' }), 'm', []);
    expect(limited).toMatchObject({ code: 'provider_rate_limited', retryAfterSeconds: 12, status: 429 });
    expect(limited.message).toContain('12 s');
  });

  it('unwraps the last error of a RetryError', () => {
    const retried = new RetryError({
      message: 'failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [httpError(500, openAiError('x')), httpError(401, openAiError('bad key'))],
    });
    expect(toTurnError(retried, 'm', [])).toMatchObject({ code: 'auth_failed' });
  });

  it('scrubs saved keys and key-shaped strings from provider messages', () => {
    const error = httpError(
      401,
      openAiError('Incorrect API key provided: sk-live-123456789. My-secret-token was wrong'),
    );
    const mapped = toTurnError(error, 'm', ['My-secret-token']);
    expect(mapped.message).not.toContain('sk-live-123456789');
    expect(mapped.message).not.toContain('My-secret-token');
    expect(mapped.message).toContain('[redacted]');
  });
});

describe('retryAfterSeconds', () => {
  it('understands seconds, milliseconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds({ 'Retry-After': '30' }, now)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after-ms': '1500' }, now)).toBe(2);
    expect(retryAfterSeconds({ 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' }, now)).toBe(60);
    expect(retryAfterSeconds({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
