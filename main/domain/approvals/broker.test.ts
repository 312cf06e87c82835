import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import type { ApprovalInput, ApprovalOutcome, ResolvedKind } from './broker';
import { createApprovalBroker } from './broker';

afterEach(() => {
  vi.useRealTimers();
});

const input = (overrides: Partial<ApprovalInput> = {}): ApprovalInput => ({
  conversationId: 'c1',
  toolCallId: 'call-1',
  tool: 'edit_file',
  summary: 'Edit notes.md',
  paths: ['notes.md'],
  operations: ['edit'],
  before: 'old',
  after: 'new',
  facts: {},
  persona: false,
  canAllowForConversation: true,
  warnings: [],
  ...overrides,
});

function setup(timeoutMs?: number) {
  const requested: ApprovalRequest[] = [];
  const resolved: [string, ResolvedKind][] = [];
  const broker = createApprovalBroker({
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    onRequested: (request) => requested.push(request),
    onResolved: (request, _outcome, kind) => resolved.push([request.id, kind]),
  });
  return { broker, requested, resolved };
}

describe('approval broker', () => {
  it('waits for approval and reports it', async () => {
    const { broker, requested, resolved } = setup();
    const outcome = broker.request(input());
    expect(requested).toHaveLength(1);
    const id = requested[0]?.id ?? '';
    expect(broker.pending().map((request) => request.id)).toEqual([id]);
    expect(broker.answer({ id, decision: 'approve', allowForConversation: false })).toMatchObject({ ok: true });
    expect(await outcome).toEqual({ approved: true, allowForConversation: false });
    expect(resolved).toEqual([[id, 'approved']]);
    expect(broker.pending()).toEqual([]);
  });

  it('allows a host for the workspace only when the question is about a host', async () => {
    const { broker, requested } = setup();
    const host = broker.request(input({ network: { host: 'registry.npmjs.org', port: 443 } }));
    const file = broker.request(input());
    const [asked, other] = requested.map((request) => request.id);
    broker.answer({ id: asked ?? '', decision: 'approve', allowForConversation: false, allowForWorkspace: true });
    broker.answer({ id: other ?? '', decision: 'approve', allowForConversation: false, allowForWorkspace: true });
    expect(await host).toEqual({ approved: true, allowForConversation: false, allowForWorkspace: true });
    expect(await file).toEqual({ approved: true, allowForConversation: false });
  });

  it('passes the reason of a rejection on to the model', async () => {
    const { broker, requested } = setup();
    const outcome = broker.request(input());
    broker.answer({ id: requested[0]?.id ?? '', decision: 'reject', reason: 'Keep the old wording' });
    expect(await outcome).toEqual({ approved: false, reason: 'Keep the old wording', expired: false });
  });

  // The request shows after: 'new' (input() above): an answer carrying that same text edited nothing.
  it.each([
    {
      what: 'hands back the user-edited text',
      editedContent: 'mine',
      allowForConversation: true,
      outcome: { approved: true, editedContent: 'mine', allowForConversation: true },
    },
    {
      what: 'treats unchanged text as a plain approval',
      editedContent: 'new',
      allowForConversation: false,
      outcome: { approved: true, allowForConversation: false },
    },
  ])('$what', async ({ editedContent, allowForConversation, outcome }) => {
    const { broker, requested } = setup();
    const answered = broker.request(input());
    broker.answer({ id: requested[0]?.id ?? '', decision: 'approve', editedContent, allowForConversation });
    expect(await answered).toEqual(outcome);
  });

  it('ignores "allow for the conversation" when the request says it cannot be offered (policy decides which)', async () => {
    const { broker, requested } = setup();
    const outcome = broker.request(input({ persona: true, paths: ['SOUL.md'], canAllowForConversation: false }));
    expect(requested[0]?.canAllowForConversation).toBe(false);
    broker.answer({ id: requested[0]?.id ?? '', decision: 'approve', allowForConversation: true });
    expect(await outcome).toEqual({ approved: true, allowForConversation: false });
  });

  it('rejects a request nobody answers in time', async () => {
    vi.useFakeTimers();
    const { broker, resolved } = setup(60_000);
    const outcome = broker.request(input());
    await vi.advanceTimersByTimeAsync(59_999);
    expect(broker.pending()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toEqual({
      approved: false,
      reason: 'The user did not answer within 1 minute(s).',
      expired: true,
    });
    expect(resolved[0]?.[1]).toBe('expired');
  });

  it('cancels a stopped turn and leaves other conversations pending', async () => {
    const { broker } = setup();
    const controller = new AbortController();
    const first = broker.request(input(), controller.signal);
    const second = broker.request(input({ conversationId: 'c2' }));
    const third = broker.request(input());
    controller.abort();
    broker.cancelConversation('c1', 'Stopped by the user.');
    const outcomes: ApprovalOutcome[] = await Promise.all([first, third]);
    expect(outcomes.map((outcome) => outcome.approved)).toEqual([false, false]);
    expect(outcomes[1]).toMatchObject({ reason: 'Stopped by the user.' });
    expect(broker.pending().map((request) => request.conversationId)).toEqual(['c2']);
    broker.cancelConversation('c2', 'done');
    expect((await second).approved).toBe(false);
  });

  it('answers not_found for unknown or already settled ids', async () => {
    const { broker, requested } = setup();
    const outcome = broker.request(input());
    const id = requested[0]?.id ?? '';
    broker.answer({ id, decision: 'reject' });
    await outcome;
    expect(broker.answer({ id, decision: 'approve', allowForConversation: false })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('keeps several requests in the order they were raised', () => {
    const { broker } = setup();
    void broker.request(input({ summary: 'a' }));
    void broker.request(input({ summary: 'b' }));
    void broker.request(input({ summary: 'c' }));
    expect(broker.pending().map((request) => request.summary)).toEqual(['a', 'b', 'c']);
    broker.cancelConversation('c1', 'cleanup');
  });
});
