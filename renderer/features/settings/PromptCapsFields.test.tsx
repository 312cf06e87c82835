import { pageApi } from '../../test-support/page-api';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, settingsPatchSchema, settingsSchema } from '../../../shared/settings';
import type { Settings } from '../../../shared/settings';
import { err, ok } from '../../../shared/result';
import { PromptCapsFields } from './PromptCapsFields';
import { useSettingsStore } from './settings-store';

let stored: Settings;

/** Answers as the core does: the patch checked against the shared schema, then merged. */
beforeEach(() => {
  pageApi.reset();
  stored = defaultSettings();
  useSettingsStore.setState({ settings: stored, error: null });
  pageApi.answer('settings.update', (patch) => {
    const parsed = settingsPatchSchema.safeParse(patch);
    if (!parsed.success) return err('invalid_payload', parsed.error.message);
    stored = settingsSchema.parse({ ...stored, prompt: { ...stored.prompt, ...parsed.data.prompt } });
    return ok(stored);
  });
});

describe('PromptCapsFields', () => {
  it('saves a cap in range on Enter and shows the stored value', async () => {
    const user = userEvent.setup();
    render(<PromptCapsFields />);
    const perFile = screen.getByRole('spinbutton', { name: 'Per file (SOUL.md, MEMORY.md)' });
    expect(perFile).toHaveProperty('value', '20000');
    await user.clear(perFile);
    await user.type(perFile, '30000{Enter}');
    expect(pageApi.inputsOf('settings.update')).toEqual([{ prompt: { perFile: 30_000 } }]);
    expect(stored.prompt).toEqual({ perFile: 30_000, userFile: 4000, total: 60_000 });
    expect(screen.getByRole('spinbutton', { name: 'Per file (SOUL.md, MEMORY.md)' })).toHaveProperty('value', '30000');
  });

  it('keeps the old cap and says why when the number is out of range', async () => {
    const user = userEvent.setup();
    render(<PromptCapsFields />);
    const userFile = screen.getByRole('spinbutton', { name: 'USER.md' });
    await user.clear(userFile);
    await user.type(userFile, '12{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('A whole number from 500 to 1000000.');
    expect(pageApi.inputsOf('settings.update')).toEqual([]);
    expect(stored.prompt.userFile).toBe(4000);
  });
});
