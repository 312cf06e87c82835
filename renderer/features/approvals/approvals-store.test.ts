import { beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { editRequest } from '../../test-support/approval-requests';
import { createContractApi } from '../../test-support/contract-api';
import { approvalsActions, selectCurrent, useApprovalsStore } from './approvals-store';

const page = createContractApi();
const sent = () => page.calls.filter((call) => call.name === 'approvals.answer').map((call) => call.input);

beforeEach(() => {
  page.reset();
  approvalsActions.reset();
  page.answer('approvals.answer', (answer) =>
    ok({
      id: answer.id,
      conversationId: 'conversation-1',
      outcome: answer.decision === 'approve' ? 'approved' : 'rejected',
    }),
  );
});

describe('approvals store: edit, then approve', () => {
  it('starts from the proposal, sends exactly the user’s text, and moves on', async () => {
    const request = editRequest({ after: 'proposal\n' });
    const next = editRequest();
    approvalsActions.received(request);
    approvalsActions.received(next);
    approvalsActions.startEditing();
    expect(useApprovalsStore.getState().draft).toMatchObject({ editing: true, editedText: 'proposal\n' });
    // What the diff editor's right side reports as the user types:
    approvalsActions.setEditedText('my own words\n');
    await approvalsActions.approve(page.api);
    expect(sent()).toEqual([
      { id: request.id, decision: 'approve', editedContent: 'my own words\n', allowForConversation: false },
    ]);
    expect(selectCurrent(useApprovalsStore.getState())?.id).toBe(next.id);
    // A fresh request starts with a fresh draft.
    expect(useApprovalsStore.getState().draft.editing).toBe(false);
  });

  it('discarding edits approves the proposal as it was', async () => {
    const request = editRequest();
    approvalsActions.received(request);
    approvalsActions.startEditing();
    approvalsActions.setEditedText('scrap');
    approvalsActions.stopEditing();
    await approvalsActions.approve(page.api);
    expect(sent()).toEqual([{ id: request.id, decision: 'approve', allowForConversation: false }]);
  });

  it('keeps the layout choice across requests and the queue across a reload', async () => {
    const held = editRequest();
    const other = editRequest();
    approvalsActions.setLayout('inline');
    approvalsActions.received(held);
    page.answer('approvals.list', () => ok({ pending: [held, other] }));
    await approvalsActions.load(page.api);
    const state = useApprovalsStore.getState();
    expect(state.queue.map((request) => request.id)).toEqual([held.id, other.id]);
    expect(state.currentId).toBe(held.id);
    expect(state.layout).toBe('inline');
  });

  it('answers nothing twice while an answer is on its way', async () => {
    const request = editRequest();
    approvalsActions.received(request);
    await Promise.all([approvalsActions.approve(page.api), approvalsActions.approve(page.api)]);
    expect(sent()).toHaveLength(1);
  });
});
