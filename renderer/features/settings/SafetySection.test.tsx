import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { enterNumber, expectNumberRefused } from '../../test-support/number-field';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confinementAnsweredInEachTest } from '../../test-support/confinement-answer';
import { confinementInfo } from '../../test-support/fixtures';
import { useConfinementStore } from './confinement-store';
import { SafetySection } from './SafetySection';

const stored = settingsLikeTheCoreInEachTest();
const answerConfinement = confinementAnsweredInEachTest();

describe('SafetySection', () => {
  it('shows the defaults and changes the hard-link switch and a backup limit through settings.update', async () => {
    const user = userEvent.setup();
    render(<SafetySection />);
    const hardLinks = screen.getByRole('checkbox', { name: /hard links/ });
    expect(hardLinks).toHaveProperty('checked', false);
    const items = screen.getByRole('spinbutton', { name: 'At most this many' });
    expect(items).toHaveProperty('value', '1000');
    expect(screen.getByRole('spinbutton', { name: 'For at most this many days' })).toHaveProperty('value', '30');
    await user.click(hardLinks);
    await enterNumber(user, 'At most this many', '50');
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { safety: { hardLinks: 'allow' } },
      { safety: { backups: { maxItems: 50 } } },
    ]);
    expect(stored().safety).toEqual({ hardLinks: 'allow', backups: { maxItems: 50, maxSizeMB: 1024, maxAgeDays: 30 } });
  });

  it('reads the explanation under the hard-link switch out with it (its accessible description)', () => {
    render(<SafetySection />);
    const explanation =
      'A hard-linked file may be the same file as one outside the workspace, so by default the assistant may not read it.';
    expect(screen.getByRole('checkbox', { name: /hard links/, description: explanation })).toBeTruthy();
    expect(screen.getByText(explanation).tagName).toBe('P');
  });

  it('keeps the old limit and says why when the number is out of range', async () => {
    const user = userEvent.setup();
    render(<SafetySection />);
    await expectNumberRefused(user, 'For at most this many days', '0', 'A whole number from 1 to 3650.');
    expect(stored().safety.backups.maxAgeDays).toBe(30);
  });

  it('says whether commands run confined, and when not, why and how to fix it', async () => {
    const { unmount } = render(<SafetySection />);
    expect((await screen.findByTestId('confinement-status')).textContent).toMatch(
      /^Commands run confined by the operating system \(bubblewrap\)/,
    );
    unmount();
    useConfinementStore.setState({ confinement: null, error: null });
    answerConfinement(
      confinementInfo({
        mode: {
          confined: false,
          reason: 'bubblewrap cannot create a sandbox here: setting up uid map: Permission denied',
          fix: 'Unprivileged user namespaces are off.',
        },
      }),
    );
    render(<SafetySection />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('Commands are not confined');
    expect(note.textContent).toContain('Why: bubblewrap cannot create a sandbox here: setting up uid map');
    expect(note.textContent).toContain('How to fix it: Unprivileged user namespaces are off.');
  });

  it.each([
    [
      { engine: 'ripgrep', source: 'bundled', path: '/opt/Familiar/resources/ripgrep/rg' },
      /shipped with Familiar \(\/opt\/Familiar\/resources\/ripgrep\/rg\)/,
    ],
    [{ engine: 'ripgrep', source: 'path', path: '/usr/bin/rg' }, /ripgrep found on PATH \(\/usr\/bin\/rg\)/],
    [{ engine: 'js', reason: 'off' }, /own engine: ripgrep is turned off/],
    [{ engine: 'js', reason: 'missing' }, /own engine: ripgrep was not found/],
  ] as const)('says which engine searches files: %o', async (search, text) => {
    answerConfinement(confinementInfo({ search }));
    render(<SafetySection />);
    expect((await screen.findByTestId('search-engine')).textContent).toMatch(text);
  });
});
