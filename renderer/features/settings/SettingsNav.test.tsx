import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { settingsSections, SettingsNav } from './SettingsNav';

describe('SettingsNav', () => {
  it('lists every section and takes the keyboard to the one chosen', async () => {
    // jsdom does no layout: record the scroll instead.
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    render(
      <>
        <SettingsNav />
        {settingsSections.map(({ id }) => (
          <h3 key={id} id={id}>
            {id}
          </h3>
        ))}
      </>,
    );
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    expect(nav.querySelectorAll('button')).toHaveLength(settingsSections.length);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Permission policy' }));
    expect(document.activeElement?.id).toBe('settings-policy');
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Permission policy' }).getAttribute('aria-current')).toBe('true');
  });
});
