import { enterList, expectListRefused } from '../../test-support/list-field';
import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { act, render, screen } from '@testing-library/react';
import type { Settings } from '../../../shared/settings';
import { err } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confinementAnsweredInEachTest } from '../../test-support/confinement-answer';
import { confinementInfo } from '../../test-support/fixtures';
import { familiar } from '../../ipc/familiar';
import { CommandsSection } from './CommandsSection';
import { settingsActions } from './settings-store';

const stored = settingsLikeTheCoreInEachTest();
const answerConfinement = confinementAnsweredInEachTest();

describe('CommandsSection', () => {
  it('says commands run confined and what each kind of program may touch, hidden trees and toolchains', async () => {
    render(<CommandsSection />);
    expect((await screen.findByTestId('confinement-status')).textContent).toBe(
      'Commands run confined by the operating system (bubblewrap): they write only inside the workspace, see nothing of your home but the toolchains, none of Familiar’s data, and reach the network only for hosts you allow.',
    );
    expect(screen.getByTestId('confinement-command').textContent).toBe(
      'Commands' +
        'writes the workspace; read-only there: SOUL.md, .git/hooks, and .git/config; reads the system and the toolchains; no home, no Familiar data; no network',
    );
    expect(screen.getByTestId('confinement-git').textContent).toBe(
      'git' +
        'writes .git; read-only there: .git/hooks; reads the workspace, the system and the toolchains; no home, no Familiar data; no network',
    );
    expect(screen.getByTestId('confinement-ripgrep').textContent).toContain(
      'writes nothing; reads the workspace, the system and, of the toolchains, only the one it comes from;',
    );
    expect(screen.getByTestId('confinement-ripgrep').textContent).toContain('not there at all: MEMORY.md');
    expect(screen.getByTestId('confinement-hidden').textContent).toBe(
      'Hidden from every program Familiar starts: your home folder (~) and ~/.familiar.',
    );
    const toolchains = screen.getByRole('list', { name: /Toolchains kept readable/ });
    expect(toolchains.textContent).toBe('~/.nvm~/.cargo');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('says prominently when commands are not confined, why, and how to fix it', async () => {
    answerConfinement(
      confinementInfo({
        mode: { confined: false, reason: 'bubblewrap (bwrap) is not installed.', fix: 'Install bubblewrap.' },
      }),
    );
    render(<CommandsSection />);
    const note = await screen.findByRole('note');
    expect(
      screen.getByRole('heading', { name: /would be held to once confined \(none of it holds now\)/ }),
    ).toBeTruthy();
    expect(screen.getByTestId('confinement-hidden').textContent).toMatch(
      /^Would be hidden from every program once confined/,
    );
    expect(note.textContent).toBe(
      'Commands are not confined: they run with all your rights (every file you can open, your keys, the network).' +
        'Why: bubblewrap (bwrap) is not installed.' +
        'How to fix it: Install bubblewrap.',
    );
  });

  it('saves folders of the home commands may read, and refuses a secret or a path not below the home', async () => {
    const user = userEvent.setup();
    render(<CommandsSection />);
    const label = 'Also readable by commands (folders or files in your home)';
    await user.type(screen.getByRole('textbox', { name: label }), 'projects/shared/, .config/myapp{Enter}');
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { commands: { readableInHome: ['projects/shared', '.config/myapp'] } },
    ]);
    expect(stored().commands.readableInHome).toEqual(['projects/shared', '.config/myapp']);
    // Saved, the field starts again from the stored list; removing one is deleting its text.
    expect(screen.getByRole('textbox', { name: label })).toHaveProperty('value', 'projects/shared, .config/myapp');
    await expectListRefused(user, label, 'projects/shared, .ssh, ~/x', 'Cannot be made readable: .ssh, ~/x');
    await enterList(user, label, 'projects/shared');
    expect(stored().commands.readableInHome).toEqual(['projects/shared']);
  });

  it('names the entries the rules left out', async () => {
    answerConfinement(confinementInfo({ leftOut: ['work/link-to-keys'] }));
    render(<CommandsSection />);
    expect((await screen.findByRole('note')).textContent).toBe(
      'Left out, because they lead to a secret, to Familiar’s data or into the workspace: work/link-to-keys',
    );
  });

  it('saves the names of variables to pass on Enter, and refuses one that is not a name', async () => {
    const user = userEvent.setup();
    render(<CommandsSection />);
    const field = screen.getByRole('textbox', { name: 'Environment variables commands may see' });
    await user.type(field, 'GH_TOKEN, DATABASE_URL{Enter}');
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { commands: { passEnvironment: ['GH_TOKEN', 'DATABASE_URL'] } },
    ]);
    expect(stored().commands.passEnvironment).toEqual(['GH_TOKEN', 'DATABASE_URL']);
    await user.clear(screen.getByRole('textbox', { name: 'Environment variables commands may see' }));
    await user.type(screen.getByRole('textbox', { name: 'Environment variables commands may see' }), 'A=1{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Not a variable name: A=1');
    expect(pageApi.inputsOf('settings.update')).toHaveLength(1);
    expect(stored().commands.passEnvironment).toEqual(['GH_TOKEN', 'DATABASE_URL']);
  });

  it('lists the hosts commands may reach without asking, and revokes one', async () => {
    await familiarUpdate({
      commands: {
        allowedHosts: [
          { host: 'registry.npmjs.org', port: 443, workspace: '/home/me/project', local: false },
          { host: 'pypi.org', workspace: null, local: false },
        ],
      },
    });
    render(<CommandsSection />);
    const list = await screen.findByRole('list', { name: 'Hosts commands may reach without asking' });
    expect(list.textContent).toBe(
      'registry.npmjs.org:443 in /home/me/project Revoke' + 'pypi.org in every workspace Revoke',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Revoke registry.npmjs.org:443' }));
    expect(stored().commands.allowedHosts).toEqual([{ host: 'pypi.org', workspace: null, local: false }]);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke pypi.org' }));
    expect(stored().commands.allowedHosts).toEqual([]);
    expect(await screen.findByText(/None yet: a command that reaches for a host asks first/)).toBeTruthy();
  });

  it('has the switch for confined commands without network, off by default', async () => {
    render(<CommandsSection />);
    const box = await screen.findByRole('checkbox', { name: /Confined commands without network run without asking/ });
    expect((box as HTMLInputElement).checked).toBe(false);
    await userEvent.click(box);
    expect(stored().commands.confinedOfflineWithoutAsking).toBe(true);
  });

  it('shows the tick while main saves it, and takes it back when the save fails', async () => {
    let finish: (result: Result<Settings>) => void = () => undefined;
    pageApi.answer('settings.update', () => new Promise<Result<Settings>>((resolve) => (finish = resolve)));
    render(<CommandsSection />);
    const box = await screen.findByRole('checkbox', { name: /Confined commands without network run without asking/ });
    await userEvent.click(box);
    expect((box as HTMLInputElement).checked).toBe(true);
    await act(async () => {
      finish(err('permission_denied', 'Familiar may not write settings.json.'));
      await Promise.resolve();
    });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(stored().commands.confinedOfflineWithoutAsking).toBe(false);
  });
});

/** Stores settings as the core would (through the page API), so the section shows them. */
async function familiarUpdate(patch: Parameters<typeof settingsActions.update>[1]) {
  await settingsActions.update(familiar, patch);
}
