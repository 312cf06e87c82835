import { beforeEach } from 'vitest';
import { ok } from '../../shared/result';
import { approvalsActions } from '../features/approvals/approvals-store';
import { pageApi } from './page-api';

/**
 * For an approval dialog's test file: before each test the page API and the approvals store start
 * empty and approvals are answered like the core (nothing pending; an answer settles as decided).
 * Returns a getter for the answers the page sent, in order.
 */
export function approvalsLikeTheCoreInEachTest() {
  beforeEach(() => {
    pageApi.reset();
    approvalsActions.reset();
    pageApi.answer('approvals.list', () => ok({ pending: [] }));
    pageApi.answer('approvals.answer', (answer) =>
      ok({
        id: answer.id,
        conversationId: 'conversation-1',
        outcome: answer.decision === 'approve' ? 'approved' : 'rejected',
      }),
    );
  });
  return () => pageApi.inputsOf('approvals.answer');
}
