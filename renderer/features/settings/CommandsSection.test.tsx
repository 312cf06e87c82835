import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confinementAnsweredInEachTest } from '../../test-support/confinement-answer';
import { confinementInfo } from '../../test-support/fixtures';
import { CommandsSection } from './CommandsSection';

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
    expect(screen.getByTestId('confinement-ripgrep').textContent).toContain('writes nothing; reads the workspace');
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
    const field = screen.getByRole('textbox', { name: label });
    expect(field).toHaveProperty('value', 'projects/shared, .config/myapp');
    await user.clear(field);
    await user.type(screen.getByRole('textbox', { name: label }), 'projects/shared, .ssh, ~/x{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Cannot be made readable: .ssh, ~/x');
    expect(pageApi.inputsOf('settings.update')).toHaveLength(1);
    await user.clear(screen.getByRole('textbox', { name: label }));
    await user.type(screen.getByRole('textbox', { name: label }), 'projects/shared{Enter}');
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
});
