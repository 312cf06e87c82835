import type { FamiliarError } from '../../../shared/errors';
import { useT } from '../../i18n/i18n';
import { errorMessageKey } from './provider-error-text';
import type { ConnectionTestOutcome } from './providers-store';

export type ConnectionTestState =
  | { readonly state: 'idle' }
  | { readonly state: 'testing' }
  | { readonly state: 'passed'; readonly outcome: ConnectionTestOutcome }
  | { readonly state: 'failed'; readonly error: FamiliarError };

/** The outcome of "Test connection", announced politely as it changes. */
export function ConnectionTestStatus({ test }: { readonly test: ConnectionTestState }) {
  const t = useT();
  return (
    <div className="connection-test" role="status" aria-live="polite">
      {test.state === 'testing' && <p>{t('provider.testing')}</p>}
      {test.state === 'passed' && (
        <p className="success">{t('provider.testPassed', { model: test.outcome.model, ms: test.outcome.latencyMs })}</p>
      )}
      {test.state === 'failed' && (
        <div className="error-text">
          <p>{t(errorMessageKey(test.error.code), { code: test.error.code })}</p>
          <p className="error-detail">{test.error.message}</p>
        </div>
      )}
    </div>
  );
}
