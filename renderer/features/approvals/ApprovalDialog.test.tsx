import { pageApi } from '../../test-support/page-api';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { err, ok } from '../../../shared/result';
import { editRequest, fileFreeRequest } from '../../test-support/approval-requests';
import { approvalsLikeTheCoreInEachTest } from '../../test-support/approvals-answer';
import { ApprovalDialog } from './ApprovalDialog';
import { ApprovalNotice } from './ApprovalNotice';
import { approvalsActions } from './approvals-store';

/**
 * DOM tests use requests without before/after (delete, move, run_command): Monaco cannot run in
 * jsdom, so the diff itself is driven in Chromium by the e2e tests, and the edit flow's payloads
 * are checked on the store (approvals-store.test.ts).
 */
const deleteRequest = (overrides: Partial<ApprovalRequest> = {}) =>
  editRequest({
    tool: 'delete_file',
    operations: ['delete'],
    before: undefined,
    after: undefined,
    beforeBytes: undefined,
    afterBytes: undefined,
    facts: { trash: 'trash/2025-01-01/old.md' },
    ...overrides,
  });

const answers = approvalsLikeTheCoreInEachTest();

/** Answers the queue in order: for each request, picks the span radio named (null: the one preselected), then Approve. */
async function approveWithSpans(dialog: HTMLElement, spans: readonly (string | RegExp | null)[]) {
  for (const span of spans) {
    if (span !== null) await userEvent.click(within(dialog).getByRole('radio', { name: span }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
  }
}

async function showDialog(...requests: ApprovalRequest[]) {
  render(
    <>
      <ApprovalDialog />
      <ApprovalNotice />
    </>,
  );
  const stop = approvalsActions.connect(pageApi.api);
  await act(async () => {
    await Promise.resolve();
  });
  act(() => requests.forEach((request) => pageApi.emit('approvals.requested', request)));
  return { dialog: await screen.findByRole('dialog', { name: /asks for your approval/ }), stop };
}

describe('ApprovalDialog', () => {
  it('shows a non-edit request as a clear summary with its facts, not a diff', async () => {
    const { dialog } = await showDialog(
      deleteRequest({
        tool: 'run_command',
        summary: 'Run npm test',
        paths: ['.'],
        operations: ['run'],
        facts: { command: 'npm test', cwd: '.' },
      }),
    );
    expect(within(dialog).getByText('Run npm test')).toBeTruthy();
    expect(within(dialog).getByText('npm test')).toBeTruthy();
    expect(within(dialog).getByText('Run')).toBeTruthy();
    expect(within(dialog).queryByTestId('code-view')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Edit, then approve' })).toBeNull();
  });

  it('says a command will run confined, in words rather than as a raw fact', async () => {
    const { dialog } = await showDialog(
      deleteRequest({ tool: 'run_command', operations: ['run'], facts: { command: 'npm test', confined: true } }),
    );
    expect(within(dialog).getByTestId('approval-confinement').textContent).toMatch(/^Runs confined: it can write only/);
    expect(within(dialog).queryByText('confined')).toBeNull();
  });

  it('says loudly that a command will not be confined, with why and how to fix it', async () => {
    const { dialog } = await showDialog(
      deleteRequest({
        tool: 'run_command',
        operations: ['run'],
        facts: {
          command: 'npm test',
          confined: false,
          confinement_reason: 'bubblewrap (bwrap) is not installed.',
          confinement_fix: 'Install it: sudo apt-get install bubblewrap.',
        },
      }),
    );
    const note = within(dialog).getByRole('note');
    expect(note.textContent).toBe(
      'Runs NOT confined, with all your rights: it can read and change any of your files and reach the network.' +
        'Why: bubblewrap (bwrap) is not installed.' +
        'How to fix it: Install it: sudo apt-get install bubblewrap.',
    );
    expect(within(dialog).queryByText('confinement_reason')).toBeNull();
  });

  it('says nothing about confinement for a request that is not a command', async () => {
    const { dialog } = await showDialog(deleteRequest());
    expect(within(dialog).queryByTestId('approval-confinement')).toBeNull();
  });

  it('queues requests with a counter and answers them in order', async () => {
    const first = deleteRequest();
    const second = deleteRequest();
    const third = deleteRequest();
    const { dialog } = await showDialog(first, second, third);
    expect(within(dialog).getByText('1 of 3')).toBeTruthy();
    expect(within(dialog).getByText(first.summary)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Next request' }));
    expect(within(dialog).getByText('2 of 3')).toBeTruthy();
    expect(within(dialog).getByText(second.summary)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(answers()).toEqual([{ id: second.id, decision: 'approve', allowForConversation: false }]);
    // The request that took its place comes next; the counter follows.
    expect(within(dialog).getByText('2 of 2')).toBeTruthy();
    expect(within(dialog).getByText(third.summary)).toBeTruthy();
  });

  it('sends allowForConversation only when offered and ticked', async () => {
    const offered = deleteRequest();
    const persona = deleteRequest({ persona: true, canAllowForConversation: false, paths: ['SOUL.md'] });
    const { dialog } = await showDialog(offered, persona);
    await userEvent.click(within(dialog).getByLabelText(/Allow changes to this file/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(within(dialog).getByText('Persona (SOUL.md)')).toBeTruthy();
    expect(within(dialog).queryByLabelText(/Allow changes to this file/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(answers()).toEqual([
      { id: offered.id, decision: 'approve', allowForConversation: true },
      { id: persona.id, decision: 'approve', allowForConversation: false },
    ]);
    expect(dialog.hasAttribute('open')).toBe(false);
  });

  it('asks about a command’s host with three spans, and sends the one chosen', async () => {
    const host = (port: number) =>
      fileFreeRequest({
        tool: 'run_command',
        summary: `\`npm install\` wants to reach registry.npmjs.org:${port}`,
        operations: ['run'],
        facts: { host: 'registry.npmjs.org', port, command: 'npm install' },
        network: { host: 'registry.npmjs.org', port },
      });
    const [once, conversation, always] = [host(1), host(2), host(3)];
    const { dialog } = await showDialog(once, conversation, always);
    expect(within(dialog).getByTestId('approval-host').textContent).toBe('registry.npmjs.org:1');
    expect(within(dialog).getByRole('radio', { name: 'For this command only' })).toHaveProperty('checked', true);
    await approveWithSpans(dialog, [null, 'For the rest of this conversation', /Always in this workspace/]);
    expect(answers()).toEqual([
      { id: once.id, decision: 'approve', allowForConversation: false },
      { id: conversation.id, decision: 'approve', allowForConversation: true },
      { id: always.id, decision: 'approve', allowForConversation: false, allowForWorkspace: true },
    ]);
  });

  it('asks about a web page’s host with the spans of a fetch, "always" kept in Settings → Web', async () => {
    const page = (path: string) =>
      fileFreeRequest({
        tool: 'web_fetch',
        summary: `web_fetch wants to read https://docs.example/${path} from docs.example:443`,
        operations: ['read'],
        facts: { host: 'docs.example', port: 443, url: `https://docs.example/${path}` },
        network: { host: 'docs.example', port: 443, kind: 'web' },
        warnings: ['What the page says is untrusted: it may carry instructions that did not come from you.'],
      });
    const [once, always] = [page('a'), page('b')];
    const { dialog } = await showDialog(once, always);
    expect(within(dialog).getByTestId('approval-host').textContent).toBe('docs.example:443');
    expect(within(dialog).getByRole('radio', { name: 'For this fetch only' })).toHaveProperty('checked', true);
    expect(within(dialog).queryByRole('radio', { name: 'For this command only' })).toBeNull();
    await approveWithSpans(dialog, [null, 'Always (kept in Settings → Web)']);
    expect(answers()).toEqual([
      { id: once.id, decision: 'approve', allowForConversation: false },
      { id: always.id, decision: 'approve', allowForConversation: false, allowForWorkspace: true },
    ]);
  });

  it('shows an MCP server tool’s server, tool, hints and formatted arguments; "always" sends allowAlways', async () => {
    const mcp = (n: number) =>
      fileFreeRequest({
        tool: 'everything__echo',
        summary: 'Run Echo Tool on the MCP server "everything"',
        operations: ['run'],
        facts: {},
        canAllowForConversation: true,
        mcp: {
          server: 'everything',
          tool: 'echo',
          title: 'Echo Tool',
          annotations: { readOnlyHint: true },
          arguments: `{\n  "message": "hello ${n}"\n}`,
        },
      });
    const [once, always] = [mcp(1), mcp(2)];
    const { dialog } = await showDialog(once, always);
    expect(within(dialog).getByText('everything')).toBeTruthy();
    expect(within(dialog).getByText('readOnlyHint: true')).toBeTruthy();
    expect(dialog.querySelector('.approval-mcp-arguments')?.textContent).toBe('{\n  "message": "hello 1"\n}');
    await approveWithSpans(dialog, [null, /always/]);
    expect(answers()).toEqual([
      { id: once.id, decision: 'approve', allowForConversation: false },
      { id: always.id, decision: 'approve', allowForConversation: false, allowAlways: true },
    ]);
  });

  it('Esc opens the rejection form; Enter sends the reason; Esc again goes back', async () => {
    const request = deleteRequest();
    const { dialog } = await showDialog(request);
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    const reason = await within(dialog).findByLabelText(/Why\?/);
    expect(document.activeElement).toBe(reason);
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(within(dialog).queryByLabelText(/Why\?/)).toBeNull();
    expect(dialog.hasAttribute('open')).toBe(true);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject…' }));
    await userEvent.type(within(dialog).getByLabelText(/Why\?/), '  keep the old notes  {Enter}');
    expect(answers()).toEqual([{ id: request.id, decision: 'reject', reason: 'keep the old notes' }]);
  });

  it('Ctrl+Enter approves; warnings are announced', async () => {
    const request = deleteRequest({ warnings: ['notes.md was read this turn and may be steering this change'] });
    const { dialog } = await showDialog(request);
    expect(within(dialog).getByRole('alert').textContent).toContain('may be steering this change');
    fireEvent.keyDown(dialog, { key: 'Enter', ctrlKey: true });
    await act(async () => {
      await Promise.resolve();
    });
    expect(answers()).toEqual([{ id: request.id, decision: 'approve', allowForConversation: false }]);
  });

  it('says so when a request closes without an answer from here, and shows failures', async () => {
    const expiring = deleteRequest();
    const failing = deleteRequest();
    const { dialog } = await showDialog(expiring, failing);
    act(() =>
      pageApi.emit('approvals.resolved', { id: expiring.id, conversationId: 'conversation-1', outcome: 'expired' }),
    );
    expect(screen.getByRole('status', { name: '' }).textContent ?? '').toContain('Expired unanswered');
    expect(within(dialog).getByText(failing.summary)).toBeTruthy();

    pageApi.answer('approvals.answer', () => err('disconnected', 'Familiar is not connected.'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Familiar is not connected.');
    expect(within(dialog).getByText(failing.summary)).toBeTruthy();
  });

  it('loads the requests already pending when it starts', async () => {
    const pending = deleteRequest();
    pageApi.answer('approvals.list', () => ok({ pending: [pending] }));
    const { dialog } = await showDialog();
    expect(within(dialog).getByText(pending.summary)).toBeTruthy();
  });
});
