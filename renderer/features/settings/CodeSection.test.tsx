import { pageApi } from '../../test-support/page-api';
import { answerSettingsLikeTheCore } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../../shared/settings';
import { CodeSection } from './CodeSection';

let stored: () => Settings;

beforeEach(() => {
  pageApi.reset();
  stored = answerSettingsLikeTheCore();
});

describe('CodeSection', () => {
  it('switches diagnostics after edits off through settings.update', async () => {
    const user = userEvent.setup();
    render(<CodeSection />);
    const box = await screen.findByRole('checkbox', { name: /problems/ });
    expect(box).toHaveProperty('checked', true);
    await user.click(box);
    expect(pageApi.inputsOf('settings.update')).toEqual([{ code: { diagnosticsAfterEdits: false } }]);
    expect(stored().code).toEqual({ diagnosticsAfterEdits: false });
    expect(screen.getByRole('checkbox', { name: /problems/ })).toHaveProperty('checked', false);
  });

  it('switches the search index off through settings.update', async () => {
    const user = userEvent.setup();
    render(<CodeSection />);
    const box = await screen.findByRole('checkbox', { name: /fast code search/ });
    expect(box).toHaveProperty('checked', true);
    await user.click(box);
    expect(pageApi.inputsOf('settings.update')).toEqual([{ search: { index: false } }]);
    expect(stored().search).toEqual({ index: false });
  });
});
