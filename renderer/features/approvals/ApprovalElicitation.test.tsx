import { pageApi } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../shared/ipc/approvals';
import { fileFreeRequest } from '../../test-support/approval-requests';
import { approvalsLikeTheCoreInEachTest } from '../../test-support/approvals-answer';
import { ApprovalDialog } from './ApprovalDialog';
import { approvalsActions } from './approvals-store';

/** A server's questions (elicitation) and its requests for the model (sampling) in the one dialog. */
const question = (elicitation: NonNullable<ApprovalRequest['elicitation']>) =>
  fileFreeRequest({
    tool: 'everything__trigger-elicitation-request',
    summary: 'The MCP server "everything" asks you for some information',
    elicitation,
  });

/** A choice field's options, valued `<name>-1`, `<name>-2`, … in the order given. */
const optionsOf = (name: string, ...labels: string[]) =>
  labels.map((label, index) => ({ value: `${name}-${index + 1}`, label }));
const hero = optionsOf('hero', 'Superman', 'Wonder Woman');
const fish = optionsOf('fish', 'Tuna', 'Salmon');

const answers = approvalsLikeTheCoreInEachTest();
afterEach(() => vi.restoreAllMocks());

async function show(request: ApprovalRequest) {
  render(<ApprovalDialog />);
  approvalsActions.connect(pageApi.api);
  await act(async () => {
    await Promise.resolve();
  });
  act(() => pageApi.emit('approvals.requested', request));
  return screen.findByRole('dialog', { name: /asks for your approval/ });
}

describe('a server’s questions in the approval dialog', () => {
  it('draws the form’s fields and sends what the user filled in, typed', async () => {
    const request = question({
      server: 'everything',
      message: 'Please provide inputs',
      mode: 'form',
      fields: [
        { name: 'name', title: 'Name', kind: 'text', required: true },
        { name: 'agree', title: 'Agree', kind: 'boolean', required: false },
        { name: 'count', title: 'Count', kind: 'integer', required: false, minimum: 1, maximum: 100, default: 42 },
        { name: 'hero', title: 'Hero', kind: 'choice', required: false, options: hero, default: 'hero-1' },
        { name: 'fish', title: 'Fish', kind: 'choices', required: false, options: fish },
      ],
    });
    const dialog = await show(request);
    expect(within(dialog).getByText('Please provide inputs')).toBeTruthy();
    const send = within(dialog).getByRole('button', { name: 'Send' });
    // The required name is empty: nothing can be sent yet, and the dialog says why.
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByRole('status').textContent).toContain('Name');
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/Name/), 'Ada');
    await user.click(within(dialog).getByLabelText('Agree'));
    await user.clear(within(dialog).getByLabelText('Count'));
    await user.type(within(dialog).getByLabelText('Count'), '7');
    await user.selectOptions(within(dialog).getByLabelText('Hero'), 'hero-2');
    await user.click(within(dialog).getByLabelText('Salmon'));
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(answers()).toEqual([
      {
        id: request.id,
        decision: 'approve',
        allowForConversation: false,
        elicitationContent: { name: 'Ada', agree: true, count: 7, hero: 'hero-2', fish: ['fish-2'] },
      },
    ]);
  });

  it('Decline and Cancel are two answers', async () => {
    const request = question({ server: 'everything', message: 'Anything?', mode: 'form', fields: [] });
    const dialog = await show(request);
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(answers()).toEqual([{ id: request.id, decision: 'reject', dismissed: true }]);
    const second = question({ server: 'everything', message: 'Again?', mode: 'form', fields: [] });
    act(() => pageApi.emit('approvals.requested', second));
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Decline' }));
    expect(answers()[1]).toEqual({ id: second.id, decision: 'reject' });
  });

  it('a link names its host and opens only when the user clicks Open', async () => {
    const opened = vi.spyOn(window, 'open').mockImplementation(() => null);
    const request = question({
      server: 'everything',
      message: 'Sign in',
      mode: 'url',
      fields: [],
      url: 'https://auth.example.com/start',
      host: 'auth.example.com',
    });
    const dialog = await show(request);
    expect(within(dialog).getByText(/page on auth\.example\.com/)).toBeTruthy();
    expect(opened).not.toHaveBeenCalled();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Open auth.example.com' }));
    expect(opened).toHaveBeenCalledWith('https://auth.example.com/start', '_blank', 'noopener,noreferrer');
    expect(answers()).toEqual([{ id: request.id, decision: 'approve', allowForConversation: false }]);
  });

  it('a sampling request shows its messages, system prompt and token limit', async () => {
    const request = fileFreeRequest({
      tool: 'everything__trigger-sampling-request',
      summary: 'The MCP server "everything" asks the model to answer (at most 64 tokens)',
      sampling: {
        server: 'everything',
        systemPrompt: 'You are a helpful test server.',
        messages: [{ role: 'user', text: 'Say hi' }],
        maxTokens: 64,
        requestedMaxTokens: 500,
      },
    });
    const dialog = await show(request);
    expect(within(dialog).getByText('You are a helpful test server.')).toBeTruthy();
    expect(within(dialog).getByText('Say hi')).toBeTruthy();
    expect(within(dialog).getByText('at most 64 tokens (it asked for 500)')).toBeTruthy();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(answers()).toEqual([{ id: request.id, decision: 'approve', allowForConversation: false }]);
  });
});
