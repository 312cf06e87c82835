import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { enterNumber, expectNumberRefused } from '../../test-support/number-field';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PromptCapsFields } from './PromptCapsFields';

const stored = settingsLikeTheCoreInEachTest();

describe('PromptCapsFields', () => {
  it('saves a cap in range on Enter and shows the stored value', async () => {
    const user = userEvent.setup();
    render(<PromptCapsFields />);
    const perFile = screen.getByRole('spinbutton', { name: 'Per file (SOUL.md, MEMORY.md)' });
    expect(perFile).toHaveProperty('value', '20000');
    await enterNumber(user, 'Per file (SOUL.md, MEMORY.md)', '30000');
    expect(pageApi.inputsOf('settings.update')).toEqual([{ prompt: { perFile: 30_000 } }]);
    expect(stored().prompt).toEqual({ perFile: 30_000, userFile: 4000, total: 60_000 });
    expect(screen.getByRole('spinbutton', { name: 'Per file (SOUL.md, MEMORY.md)' })).toHaveProperty('value', '30000');
  });

  it('keeps the old cap and says why when the number is out of range', async () => {
    const user = userEvent.setup();
    render(<PromptCapsFields />);
    await expectNumberRefused(user, 'USER.md', '12', 'A whole number from 500 to 1000000.');
    expect(stored().prompt.userFile).toBe(4000);
  });
});
