import { pageApi } from '../../test-support/page-api';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../shared/ipc/conversations';
import { err, ok } from '../../../shared/result';
import { IncognitoButton } from './IncognitoButton';
import { IncognitoNotice } from './IncognitoNotice';

const summary: ConversationSummary = {
  id: 'c0000000-incognito',
  title: 'New conversation',
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  messageCount: 0,
  incognito: true,
};

beforeEach(() => pageApi.reset());

describe('IncognitoButton', () => {
  it('explains incognito before creating one, then creates it with incognito: true', async () => {
    const user = userEvent.setup();
    pageApi.answer('conversations.create', () => ok(summary));
    const created: ConversationSummary[] = [];
    render(<IncognitoButton onCreated={(conversation) => created.push(conversation)} />);
    await user.click(screen.getByRole('button', { name: 'New incognito conversation' }));
    const panel = screen.getByRole('dialog', { name: 'New incognito conversation' });
    expect(panel.textContent).toContain('Memory is off in an incognito conversation');
    expect(panel.textContent).toContain('gone when Familiar quits');
    expect(pageApi.calls).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Start incognito' }));
    expect(pageApi.calls).toEqual([{ name: 'conversations.create', input: { incognito: true } }]);
    expect(created).toEqual([summary]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('memory off, not saved');
  });

  it('shows why creation failed and Escape closes without creating', async () => {
    const user = userEvent.setup();
    pageApi.answer('conversations.create', () => err('internal_error', 'disk on fire'));
    render(<IncognitoButton />);
    await user.click(screen.getByRole('button', { name: 'New incognito conversation' }));
    await user.click(screen.getByRole('button', { name: 'Start incognito' }));
    expect(screen.getByRole('alert').textContent).toContain('disk on fire');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New incognito conversation' }));
  });
});

describe('IncognitoNotice', () => {
  it('shows only for an incognito conversation', () => {
    const { rerender } = render(<IncognitoNotice conversation={summary} />);
    expect(screen.getByTestId('incognito-notice').textContent).toContain('not saved');
    rerender(<IncognitoNotice conversation={{}} />);
    expect(screen.queryByTestId('incognito-notice')).toBeNull();
  });
});
