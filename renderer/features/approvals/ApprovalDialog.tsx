import type { KeyboardEvent } from 'react';
import { Modal } from '../../app/Modal';
import { familiar } from '../../ipc/familiar';
import { ApprovalContent } from './ApprovalContent';
import { approvalsActions, selectCurrent, useApprovalsStore } from './approvals-store';
import './approvals.css';

// The request stays pending until it is answered: closing the dialog is never an answer.
const stayOpen = () => undefined;

/**
 * The modal that holds the assistant until the user answers. Its title is inside the content
 * (ApprovalContent focuses it); Esc starts a rejection instead of closing silently.
 */
export function ApprovalDialog() {
  const request = useApprovalsStore(selectCurrent);
  const rejecting = useApprovalsStore((state) => state.draft.rejecting);

  // Esc never dismisses a pending approval: it opens (or backs out of) the rejection form.
  const onEscape = () => (rejecting ? approvalsActions.stopRejecting() : approvalsActions.startRejecting());

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void (rejecting ? approvalsActions.reject(familiar) : approvalsActions.approve(familiar));
    }
  };

  return (
    <Modal
      open={request !== null}
      onClose={stayOpen}
      onEscape={onEscape}
      onKeyDown={onKeyDown}
      className="approval-dialog"
      labelledBy="approval-title"
      describedBy="approval-summary"
    >
      {request !== null && <ApprovalContent key={request.id} request={request} />}
    </Modal>
  );
}
