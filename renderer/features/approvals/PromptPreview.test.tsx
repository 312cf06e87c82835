import { pageApi } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { editRequest } from '../../test-support/approval-requests';
import { ApprovalDialog } from './ApprovalDialog';
import { approvalsActions } from './approvals-store';

/** Monaco does not run in jsdom: requests here carry no before/after (the e2e drives the diff). */
const withoutDiff = { before: undefined, after: undefined, beforeBytes: undefined, afterBytes: undefined };

beforeEach(() => {
  pageApi.reset();
  approvalsActions.reset();
  pageApi.answer('approvals.list', () => ok({ pending: [] }));
});

async function show(request: ReturnType<typeof editRequest>) {
  render(<ApprovalDialog />);
  const stop = approvalsActions.connect(pageApi.api);
  await act(async () => {
    await Promise.resolve();
  });
  act(() => pageApi.emit('approvals.requested', request));
  const dialog = await screen.findByRole('dialog', { name: /asks for your approval/ });
  return { dialog, stop };
}

describe('the prompt preview in a persona approval', () => {
  it('is a collapsed section showing the SOUL.md part of the prompt exactly as main sent it', async () => {
    const user = userEvent.setup();
    const promptPreview =
      '## Your persona (SOUL.md)\n\nI am bold.\n[...truncated: 12 chars omitted, read_file SOUL.md for the rest]\n';
    const { dialog, stop } = await show(editRequest({ ...withoutDiff, persona: true, promptPreview }));
    const preview = within(dialog).getByTestId<HTMLDetailsElement>('prompt-preview');
    expect(preview.open).toBe(false);
    await user.click(within(preview).getByText('What the assistant will read'));
    expect(preview.open).toBe(true);
    expect(preview.querySelector('pre')?.textContent).toBe(promptPreview);
    stop();
  });

  it('is absent when the request has none', async () => {
    const { dialog, stop } = await show(editRequest({ ...withoutDiff }));
    expect(within(dialog).queryByTestId('prompt-preview')).toBeNull();
    stop();
  });
});
