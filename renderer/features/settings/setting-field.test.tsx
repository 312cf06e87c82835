import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useSettingsStore } from './settings-store';
import { SettingChoice } from './SettingChoice';
import { SettingSwitch } from './SettingSwitch';

const stored = settingsLikeTheCoreInEachTest();

describe('SettingSwitch', () => {
  it('is labelled and described by its messages and saves only its own field', async () => {
    const user = userEvent.setup();
    render(<SettingSwitch part="search" field="index" />);
    const box = screen.getByRole('checkbox', {
      name: 'Index the workspace for fast code search',
      description: /^search_in_code keeps a trigram index/,
    });
    expect(box).toHaveProperty('checked', true);
    await user.click(box);
    expect(pageApi.inputsOf('settings.update')).toEqual([{ search: { index: false } }]);
    expect(stored().search).toEqual({ index: false, embeddingModel: null });
    expect(screen.getByRole('checkbox')).toHaveProperty('checked', false);
  });

  it('has no description when the dictionary has no explanation for it', () => {
    render(<SettingSwitch part="transfers" field="allowNonText" />);
    expect(screen.getByRole('checkbox', { name: /not text/ }).getAttribute('aria-describedby')).toBeNull();
  });

  it('shows nothing until the settings have loaded', () => {
    useSettingsStore.setState({ settings: null });
    const { container } = render(<SettingSwitch part="memory" field="enabled" />);
    expect(container.innerHTML).toBe('');
  });
});

describe('SettingChoice', () => {
  it('names its options by their messages and saves the chosen one', async () => {
    const user = userEvent.setup();
    render(<SettingChoice part="ui" field="theme" options={['system', 'light', 'dark']} />);
    const select = screen.getByRole('combobox', { name: 'Theme' });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Like the system',
      'Light',
      'Dark',
    ]);
    await user.selectOptions(select, 'dark');
    expect(pageApi.inputsOf('settings.update')).toEqual([{ ui: { theme: 'dark' } }]);
    expect(select).toHaveProperty('value', 'dark');
  });
});
