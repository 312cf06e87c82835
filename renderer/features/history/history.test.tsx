import { pageApi } from '../../test-support/page-api';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PersonaFileInfo, PersonaInfo } from '../../../shared/ipc/assistant';
import type { PersonaVersion } from '../../../shared/ipc/history';
import { err, ok } from '../../../shared/result';
import { defaultSettings } from '../../../shared/settings';
import { settingsActions } from '../settings/settings-store';
import { defaultVersion, historyActions, useHistoryStore } from './history-store';
import { HistoryButton } from './HistoryButton';

/**
 * The History panel and the header's truncation warnings against the contract. Monaco does not run
 * in jsdom: the diff itself is driven in Chromium by e2e/memory-history.spec.ts.
 */
const version = (id: string, text: string, overrides: Partial<PersonaVersion> = {}): PersonaVersion => ({
  id,
  file: 'SOUL.md',
  at: '2026-11-20T10:00:00.000Z',
  author: 'user',
  reason: `reason ${id}`,
  chars: text.length,
  text,
  ...overrides,
});

const fileInfo = (name: PersonaFileInfo['name'], omittedChars = 0): PersonaFileInfo => ({
  name,
  path: `/home/ada/.familiar/workspace/${name}`,
  exists: true,
  chars: 30_000,
  tokens: 7_500,
  cap: 20_000,
  includedChars: 30_000 - omittedChars,
  omittedChars,
  inPrompt: true,
});

const info = (soulOmitted: number): PersonaInfo => ({
  dir: '/home/ada/.familiar/workspace',
  dailyNotesDir: '/home/ada/.familiar/workspace/memory',
  files: [fileInfo('SOUL.md', soulOmitted), fileInfo('USER.md'), fileInfo('MEMORY.md')],
  totalCap: 60_000,
});

let versions: Record<string, PersonaVersion[]>;
let current: Record<string, string>;

beforeEach(() => {
  pageApi.reset();
  historyActions.reset();
  versions = {
    'SOUL.md': [
      version('v2', 'I am bold.', { author: 'assistant', conversationId: 'c-1234567890abc' }),
      version('v1', 'I am calm.'),
    ],
    'USER.md': [],
    'MEMORY.md': [version('m2', 'Tea.\nMore.', { file: 'MEMORY.md' }), version('m1', 'Tea.', { file: 'MEMORY.md' })],
  };
  current = { 'SOUL.md': 'I am bold.', 'USER.md': '', 'MEMORY.md': 'Tea.\nMore.' };
  pageApi.answer('persona.info', () => ok(info(0)));
  pageApi.answer('history.list', ({ file }) =>
    ok({
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the list carries no text
      versions: (versions[file] ?? []).map(({ text, ...summary }) => summary),
      current: current[file] ?? '',
    }),
  );
  pageApi.answer('history.get', ({ file, id }) => {
    const found = versions[file]?.find((candidate) => candidate.id === id);
    return found === undefined ? err('not_found', 'gone') : ok(found);
  });
  pageApi.answer('history.revert', ({ file, id }) => {
    const target = versions[file]?.find((candidate) => candidate.id === id);
    if (target === undefined) return err('not_found', 'gone');
    const reverted = version('v3', target.text, { file, reason: 'Reverted' });
    versions[file] = [reverted, ...(versions[file] ?? [])];
    current[file] = target.text;
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the summary carries no text
    const { text, ...summary } = reverted;
    return ok(summary);
  });
  settingsActions.received(defaultSettings());
});

const flush = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

describe('defaultVersion', () => {
  it('skips the newest version when it is the current text', () => {
    const list = versions['SOUL.md'] ?? [];
    expect(defaultVersion(list, 'I am bold.')?.id).toBe('v1');
    expect(defaultVersion(list, 'Edited outside Familiar.')?.id).toBe('v2');
    expect(defaultVersion([], '')).toBeUndefined();
  });
});

describe('History panel', () => {
  it('lists versions with author, conversation and reason, and reverts the chosen one', async () => {
    const user = userEvent.setup();
    render(<HistoryButton />);
    await user.click(screen.getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'Persona and memory history' });
    const rows = await within(dialog).findAllByTestId('history-version');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/assistant.*reason v2.*conversation c-12345678/),
      expect.stringMatching(/you.*reason v1/),
    ]);
    await flush();
    expect(rows[1]?.getAttribute('aria-pressed')).toBe('true');

    await user.click(within(dialog).getByRole('button', { name: 'Revert to this version' }));
    await flush();
    expect(pageApi.calls.filter((call) => call.name === 'history.revert').map((call) => call.input)).toEqual([
      { file: 'SOUL.md', id: 'v1' },
    ]);
    expect(
      within(dialog)
        .getByText(/^Reverted\./)
        .getAttribute('role'),
    ).toBe('status');
    expect(within(dialog).getAllByTestId('history-version')).toHaveLength(3);
    expect(useHistoryStore.getState().current).toBe('I am calm.');
    expect(within(dialog).getByRole('button', { name: 'Revert to this version' }).hasAttribute('disabled')).toBe(true);
  });

  it('keeps USER.md and MEMORY.md read-only while memory is off, but SOUL.md revertible', async () => {
    const user = userEvent.setup();
    settingsActions.received({ ...defaultSettings(), memory: { enabled: false } });
    render(<HistoryButton />);
    await user.click(screen.getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'Persona and memory history' });
    await user.click(within(dialog).getByRole('button', { name: 'MEMORY.md' }));
    await flush();
    expect(within(dialog).getAllByTestId('history-version')).toHaveLength(2);
    expect(within(dialog).getByRole('note').textContent).toContain('Memory is off: MEMORY.md is read-only.');
    expect(within(dialog).getByRole('button', { name: 'Revert to this version' }).hasAttribute('disabled')).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'SOUL.md' }));
    await flush();
    expect(within(dialog).queryByRole('note')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Revert to this version' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the revert error main answers', async () => {
    const user = userEvent.setup();
    pageApi.answer('history.revert', () => err('permission_denied', 'MEMORY.md is read-only while memory is off.'));
    render(<HistoryButton />);
    await user.click(screen.getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'Persona and memory history' });
    await flush();
    await user.click(within(dialog).getByRole('button', { name: 'Revert to this version' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'The revert failed: MEMORY.md is read-only',
    );
  });
});

describe('truncation warnings in the header', () => {
  it('appear only for a truncated file and open its history', async () => {
    const user = userEvent.setup();
    render(<HistoryButton />);
    await flush();
    expect(screen.queryByTestId('prompt-truncated')).toBeNull();

    pageApi.answer('persona.info', () => ok(info(10_000)));
    act(() => pageApi.emit('history.changed', { file: 'SOUL.md' }));
    const warning = await screen.findByTestId('prompt-truncated');
    expect(warning.textContent).toContain('SOUL.md is cut in the prompt');
    expect(warning.title).toContain('10,000 characters left out');
    await user.click(warning);
    const dialog = await screen.findByRole('dialog', { name: 'Persona and memory history' });
    expect(within(dialog).getByRole('button', { name: 'SOUL.md' })?.getAttribute('aria-pressed')).toBe('true');
    expect(within(dialog).getByRole('alert').textContent).toMatch(/10,000/);
  });
});
