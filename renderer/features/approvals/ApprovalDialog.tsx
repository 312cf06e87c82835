import { useEffect, useRef } from 'react';
import type { KeyboardEvent, SyntheticEvent } from 'react';
import { useFocusTrap } from '../../app/use-focus-trap';
import { familiar } from '../../ipc/familiar';
import { ApprovalContent } from './ApprovalContent';
import { approvalsActions, selectCurrent, useApprovalsStore } from './approvals-store';
import './approvals.css';

/**
 * The modal that holds the assistant until the user answers. Native <dialog>: the page behind is
 * inert; Tab wraps inside (useFocusTrap); Esc starts a rejection instead of closing silently.
 */
export function ApprovalDialog() {
  const request = useApprovalsStore(selectCurrent);
  const rejecting = useApprovalsStore((state) => state.draft.rejecting);
  const ref = useRef<HTMLDialogElement>(null);
  const open = request !== null;
  useFocusTrap(ref, open);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const onCancel = (event: SyntheticEvent) => {
    // Esc never dismisses a pending approval: it opens (or backs out of) the rejection form.
    event.preventDefault();
    if (rejecting) approvalsActions.stopRejecting();
    else approvalsActions.startRejecting();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void (rejecting ? approvalsActions.reject(familiar) : approvalsActions.approve(familiar));
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog approval-dialog"
      aria-labelledby="approval-title"
      aria-describedby="approval-summary"
      onCancel={onCancel}
      onKeyDown={onKeyDown}
    >
      {request !== null && <ApprovalContent key={request.id} request={request} />}
    </dialog>
  );
}
