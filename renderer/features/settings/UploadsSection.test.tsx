import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UploadsSection } from './UploadsSection';

const stored = settingsLikeTheCoreInEachTest();

describe('UploadsSection', () => {
  it('changes the size cap and the non-text switch through settings.update', async () => {
    const user = userEvent.setup();
    render(<UploadsSection />);
    expect(screen.getByRole('combobox', { name: 'Largest file you can drop' })).toHaveProperty('value', '10');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Largest file you can drop' }), '5');
    await user.click(screen.getByRole('checkbox', { name: /not text/ }));
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { transfers: { maxUploadMB: 5 } },
      { transfers: { allowNonText: true } },
    ]);
    expect(stored().transfers).toEqual({ maxUploadMB: 5, allowNonText: true });
    expect(screen.getByRole('checkbox', { name: /not text/ })).toHaveProperty('checked', true);
  });
});
