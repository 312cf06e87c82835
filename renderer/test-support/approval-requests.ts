import type { ApprovalRequest } from '../../shared/ipc/approvals';

let sequence = 0;

/** An approval request as main raises it for an edit of `path`; tests override what they need. */
export function editRequest(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  sequence += 1;
  const created = new Date(Date.UTC(2025, 0, 1, 12, 0, sequence));
  return {
    id: `request-${sequence}`,
    conversationId: 'conversation-1',
    toolCallId: `call-${sequence}`,
    tool: 'edit_file',
    summary: `Replace 1 line in notes-${sequence}.md`,
    paths: [`notes-${sequence}.md`],
    operations: ['edit'],
    before: 'hello\n',
    after: 'hello, world\n',
    beforeBytes: 6,
    afterBytes: 13,
    facts: {},
    persona: false,
    canAllowForConversation: true,
    warnings: [],
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + 600_000).toISOString(),
    ...overrides,
  };
}

/** A request that touches no file (an MCP server's question or request for the model): no paths, no diff. */
export function fileFreeRequest(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return editRequest({
    operations: [],
    paths: [],
    before: undefined,
    after: undefined,
    beforeBytes: undefined,
    afterBytes: undefined,
    ...overrides,
  });
}
