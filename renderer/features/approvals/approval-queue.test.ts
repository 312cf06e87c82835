import { describe, expect, it } from 'vitest';
import { approvalAnswerSchema } from '../../../shared/ipc/approvals';
import { editRequest } from '../../test-support/approval-requests';
import { approveAnswer, emptyDraft, enqueue, hasDiff, nextCurrent, rejectAnswer } from './approval-queue';

describe('approval queue', () => {
  it('keeps the oldest first and holds each request once', () => {
    const [a, b, c] = [editRequest(), editRequest(), editRequest()];
    const queue = [c, a, b, a].reduce(enqueue, []);
    expect(queue.map((request) => request.id)).toEqual([a.id, b.id, c.id]);
  });

  it('after an answer shows the request that took its place, else the one before', () => {
    const [a, b, c] = [editRequest(), editRequest(), editRequest()];
    const before = [a, b, c];
    expect(nextCurrent(before, [a, c], b.id, b.id)).toBe(c.id);
    expect(nextCurrent(before, [a, b], c.id, c.id)).toBe(b.id);
    expect(nextCurrent(before, [a, c], a.id, b.id)).toBe(a.id);
    expect(nextCurrent([a], [], a.id, a.id)).toBeNull();
  });

  it('tells diffs (writes, edits) from summaries (delete, move, run)', () => {
    expect(hasDiff(editRequest())).toBe(true);
    expect(hasDiff(editRequest({ before: undefined, after: undefined }))).toBe(false);
  });
});

describe('answers', () => {
  const request = editRequest();

  it('approves plainly, with the user’s text only in edit mode, and allows only where offered', () => {
    expect(approveAnswer(request, emptyDraft)).toEqual({
      id: request.id,
      decision: 'approve',
      allowForConversation: false,
    });
    expect(
      approveAnswer(request, { ...emptyDraft, editing: true, editedText: 'mine\n', allowForConversation: true }),
    ).toEqual({
      id: request.id,
      decision: 'approve',
      editedContent: 'mine\n',
      allowForConversation: true,
    });
    // Text typed and then discarded (edit mode left) is not sent.
    expect(approveAnswer(request, { ...emptyDraft, editing: false, editedText: 'mine\n' })).not.toHaveProperty(
      'editedContent',
    );
    const persona = editRequest({ persona: true, canAllowForConversation: false });
    expect(approveAnswer(persona, { ...emptyDraft, allowForConversation: true })).toMatchObject({
      allowForConversation: false,
    });
  });

  it('rejects with a trimmed reason, or none', () => {
    expect(rejectAnswer(request, { ...emptyDraft, reason: '  too long  ' })).toEqual({
      id: request.id,
      decision: 'reject',
      reason: 'too long',
    });
    expect(rejectAnswer(request, { ...emptyDraft, reason: '   ' })).toEqual({ id: request.id, decision: 'reject' });
  });

  it('produces only answers the contract accepts', () => {
    for (const answer of [
      approveAnswer(request, emptyDraft),
      approveAnswer(request, { ...emptyDraft, editing: true, editedText: '' }),
      rejectAnswer(request, { ...emptyDraft, reason: 'no' }),
    ]) {
      expect(approvalAnswerSchema.safeParse(answer).success).toBe(true);
    }
  });
});
