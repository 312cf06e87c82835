import { pageApi } from '../../test-support/page-api';
import { answerSettingsLikeTheCore } from '../../test-support/settings-answer';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SkillRow } from '../../../shared/ipc/skills';
import { ok } from '../../../shared/result';
import type { Settings } from '../../../shared/settings';
import { SkillsSection } from './SkillsSection';

let stored: () => Settings;

const row = (name: string, source: SkillRow['source'], extra: Partial<SkillRow> = {}): SkillRow => ({
  name,
  description: `${name} does things.`,
  source,
  dir: `/skills/${source}/${name}`,
  enabled: true,
  loaded: true,
  errors: [],
  warnings: [],
  ...extra,
});

beforeEach(() => {
  pageApi.reset();
  stored = answerSettingsLikeTheCore();
  // As the core answers: the switch comes from the settings as they are now.
  pageApi.answer('skills.list', () =>
    ok({
      skills: [
        row('notes', 'workspace', {
          enabled: !stored().skills.disabled.includes('notes'),
          loaded: !stored().skills.disabled.includes('notes'),
        }),
        row('notes', 'user', { loaded: false, shadowedBy: 'workspace' }),
        row('Broken', 'familiar', {
          description: '',
          loaded: false,
          errors: ["'name' may hold only lowercase letters"],
        }),
      ],
    }),
  );
});

describe('SkillsSection', () => {
  it('lists each skill with its source and state, and an invalid one with its errors and no switch to turn on', async () => {
    render(<SkillsSection />);
    const workspace = await screen.findByTestId('skill-workspace-notes');
    expect(workspace.textContent).toContain('offered to the assistant');
    expect(workspace.textContent).toContain('notes does things.');
    expect(screen.getByTestId('skill-user-notes').textContent).toContain(
      'not loaded: a skill of this name in workspace comes first',
    );
    const broken = screen.getByTestId('skill-familiar-Broken');
    expect(broken.textContent).toContain('not loaded: invalid');
    expect(within(broken).getByRole('list', { name: 'What is wrong with Broken' }).textContent).toContain(
      'lowercase letters',
    );
    expect(within(broken).getByRole('checkbox')).toHaveProperty('disabled', true);
  });

  it('switches a skill off and on again through settings.update (skills.disabled)', async () => {
    const user = userEvent.setup();
    render(<SkillsSection />);
    const box = await screen.findByRole('checkbox', { name: 'Use the skill notes (workspace)' });
    await user.click(box);
    expect(stored().skills.disabled).toEqual(['notes']);
    await vi.waitFor(() => expect(screen.getByTestId('skill-workspace-notes').textContent).toContain('switched off'));
    await user.click(screen.getByRole('checkbox', { name: 'Use the skill notes (workspace)' }));
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { skills: { disabled: ['notes'] } },
      { skills: { disabled: [] } },
    ]);
    // The list is read again after each change, so the rows show what the core decided.
    expect(pageApi.inputsOf('skills.list').length).toBeGreaterThanOrEqual(3);
  });
});
