import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CommandsSection } from './CommandsSection';

const stored = settingsLikeTheCoreInEachTest();

describe('CommandsSection', () => {
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
