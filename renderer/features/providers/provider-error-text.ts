import type { ErrorCode } from '../../../shared/errors';
import type { MessageKey } from '../../i18n/en';

const keys: Partial<Record<ErrorCode, MessageKey>> = {
  provider_not_configured: 'error.providerNotConfigured',
  auth_failed: 'error.authFailed',
  provider_rate_limited: 'error.rateLimited',
  network_error: 'error.network',
  model_not_found: 'error.modelNotFound',
  context_too_long: 'error.contextTooLong',
  provider_error: 'error.provider',
  turn_in_progress: 'error.turnInProgress',
  not_found: 'error.notFound',
  disconnected: 'error.disconnected',
  invalid_payload: 'error.invalidPayload',
};

/** The localized sentence for an error code; codes without one fall back to a generic line naming the code. */
export function errorMessageKey(code: ErrorCode): MessageKey {
  return keys[code] ?? 'error.other';
}

/** Codes the user fixes in the provider settings rather than by waiting. */
export const fixedInProviderSettings = (code: ErrorCode): boolean =>
  code === 'provider_not_configured' || code === 'auth_failed' || code === 'model_not_found';
