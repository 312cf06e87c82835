import { pageApi } from '../../test-support/page-api';
import { answerSettingsLikeTheCore } from '../../test-support/settings-answer';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LanguageServerRow } from '../../../shared/ipc/language-servers';
import { err, ok } from '../../../shared/result';
import type { Settings } from '../../../shared/settings';
import { CodeSection } from './CodeSection';

let stored: () => Settings;

const row = (id: string, state: LanguageServerRow['state'], log: string[] = []): LanguageServerRow => ({
  id,
  state,
  userAdded: false,
  restarts: 0,
  log,
});

beforeEach(() => {
  pageApi.reset();
  stored = answerSettingsLikeTheCore();
  pageApi.answer('languageServers.list', () =>
    ok({ servers: [row('typescript', 'running', ['tsserver ready']), row('gopls', 'not_installed')] }),
  );
});

describe('CodeSection', () => {
  it('switches diagnostics after edits off through settings.update', async () => {
    const user = userEvent.setup();
    render(<CodeSection />);
    const box = await screen.findByRole('checkbox', { name: /problems/ });
    expect(box).toHaveProperty('checked', true);
    await user.click(box);
    expect(pageApi.inputsOf('settings.update')).toEqual([{ code: { diagnosticsAfterEdits: false } }]);
    expect(stored().code).toEqual({ diagnosticsAfterEdits: false, servers: [] });
    expect(screen.getByRole('checkbox', { name: /problems/ })).toHaveProperty('checked', false);
  });

  it('adds a server from the keyboard, refuses an incomplete one, and removes it again', async () => {
    const user = userEvent.setup();
    render(<CodeSection />);
    await user.click(screen.getByRole('button', { name: 'Add a server' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'lua');
    await user.click(screen.getByRole('button', { name: 'Save servers' }));
    expect(screen.getByRole('alert').textContent).toMatch(/^Server 1 is not complete: command/);
    expect(pageApi.inputsOf('settings.update')).toEqual([]);

    // Tab order follows the labelled fields of the row.
    await user.click(screen.getByRole('textbox', { name: 'Command (on PATH, or an absolute path)' }));
    await user.keyboard('lua-language-server');
    await user.tab();
    await user.keyboard('--stdio');
    await user.tab();
    await user.keyboard('.lua *.rockspec');
    await user.tab();
    await user.keyboard('lua');
    await user.click(screen.getByRole('button', { name: 'Save servers' }));
    const saved = {
      id: 'lua',
      command: 'lua-language-server',
      args: ['--stdio'],
      patterns: ['.lua', '*.rockspec'],
      languageId: 'lua',
    };
    expect(pageApi.inputsOf('settings.update')).toEqual([{ code: { servers: [saved] } }]);
    expect(stored().code.servers).toEqual([saved]);

    await user.click(await screen.findByRole('button', { name: 'Remove server 1' }));
    await user.click(screen.getByRole('button', { name: 'Save servers' }));
    expect(stored().code.servers).toEqual([]);
  });

  it('shows each language server with its state and log, restarts one, and follows languageServers.changed', async () => {
    const user = userEvent.setup();
    pageApi.answer('languageServers.restart', ({ id }) =>
      id === 'typescript'
        ? ok({ servers: [{ ...row('typescript', 'running'), restarts: 1 }, row('gopls', 'not_installed')] })
        : err('not_found', 'no'),
    );
    render(<CodeSection />);
    const panel = await screen.findByRole('group', { name: 'Language servers' });
    expect(await within(panel).findByText('running')).toBeTruthy();
    expect(within(panel).getByText('not installed')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Restart gopls' })).toHaveProperty('disabled', true);
    expect(within(panel).getByText('tsserver ready')).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Restart typescript' }));
    expect(pageApi.inputsOf('languageServers.restart')).toEqual([{ id: 'typescript' }]);
    expect(await within(panel).findByText('restarted 1×')).toBeTruthy();

    act(() => pageApi.emit('languageServers.changed', { servers: [row('typescript', 'crashed', ['boom'])] }));
    expect(within(panel).getByText('crashed')).toBeTruthy();
    expect(within(panel).getByText('boom')).toBeTruthy();
  });

  it('switches the search index off through settings.update', async () => {
    const user = userEvent.setup();
    render(<CodeSection />);
    const box = await screen.findByRole('checkbox', { name: /fast code search/ });
    expect(box).toHaveProperty('checked', true);
    await user.click(box);
    expect(pageApi.inputsOf('settings.update')).toEqual([{ search: { index: false } }]);
    expect(stored().search).toEqual({ index: false, embeddingModel: null });
  });
});
