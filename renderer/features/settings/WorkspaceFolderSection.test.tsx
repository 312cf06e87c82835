import { pageApi } from '../../test-support/page-api';
import { answerSettingsLikeTheCore } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../../shared/settings';
import { WorkspaceFolderSection } from './WorkspaceFolderSection';

let stored: () => Settings;

beforeEach(() => {
  pageApi.reset();
  stored = answerSettingsLikeTheCore();
});

describe('WorkspaceFolderSection', () => {
  it('saves the embedding model for semantic search, and clears it back to words alone', async () => {
    const user = userEvent.setup();
    render(<WorkspaceFolderSection />);
    const field = await screen.findByRole('textbox', { name: /embedding model/i });
    expect(field).toHaveProperty('value', '');
    await user.type(field, ' nomic-embed-text {Enter}');
    expect(stored().search).toEqual({ index: true, embeddingModel: 'nomic-embed-text' });
    await user.clear(screen.getByRole('textbox', { name: /embedding model/i }));
    await user.tab();
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { search: { embeddingModel: 'nomic-embed-text' } },
      { search: { embeddingModel: null } },
    ]);
    expect(stored().search).toEqual({ index: true, embeddingModel: null });
  });
});
