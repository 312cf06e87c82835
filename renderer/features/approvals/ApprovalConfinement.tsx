import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { UnconfinedWarning } from '../../app/UnconfinedWarning';
import { useT } from '../../i18n/i18n';

/** The facts a command's request carries about its confinement: said in words, not listed as raw facts. */
export const confinementFacts: ReadonlySet<string> = new Set(['confined', 'confinement_reason', 'confinement_fix']);

/**
 * Whether the command asked about will run confined by the operating system (run_command's
 * `confined` fact); when it will not, loudly, with why and how to fix it. Nothing for other requests.
 */
export function ApprovalConfinement({ request }: { readonly request: ApprovalRequest }) {
  const t = useT();
  const { confined, confinement_reason: reason, confinement_fix: fix } = request.facts;
  if (typeof confined !== 'boolean') return null;
  if (confined) {
    return (
      <p className="approval-confinement" data-testid="approval-confinement">
        {t('approval.confined')}
      </p>
    );
  }
  return (
    <UnconfinedWarning
      headline={t('approval.unconfined')}
      reason={reason === undefined ? undefined : String(reason)}
      fix={fix === undefined ? undefined : String(fix)}
      className="approval-confinement"
      testId="approval-confinement"
    />
  );
}
