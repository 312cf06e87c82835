import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WebSection } from './WebSection';

const stored = settingsLikeTheCoreInEachTest();
const label = 'Hosts web_fetch reads without asking';

describe('WebSection', () => {
  it('adds and removes allowed hosts (host or host:port), and refuses what is neither', async () => {
    const user = userEvent.setup();
    render(<WebSection />);
    await user.type(
      await screen.findByRole('textbox', { name: label }),
      'Docs.Python.org 127.0.0.1:5173 [[::1]:8080{Enter}',
    );
    expect(pageApi.inputsOf('settings.update')).toEqual([
      { web: { allowedHosts: ['docs.python.org', '127.0.0.1:5173', '[::1]:8080'] } },
    ]);
    expect(stored().web.allowedHosts).toEqual(['docs.python.org', '127.0.0.1:5173', '[::1]:8080']);
    const field = screen.getByRole('textbox', { name: label });
    expect(field).toHaveProperty('value', 'docs.python.org 127.0.0.1:5173 [::1]:8080');
    expect(field.getAttribute('aria-describedby')).toContain('settings-web-allowedHosts-explain');
    expect(screen.getByText(/refused unless the host is listed here exactly/)).toBeTruthy();
    await user.clear(field);
    await user.type(screen.getByRole('textbox', { name: label }), 'docs.python.org https://evil.example/x{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Not a host or host:port: https://evil.example/x');
    expect(pageApi.inputsOf('settings.update')).toHaveLength(1);
    await user.clear(screen.getByRole('textbox', { name: label }));
    await user.type(screen.getByRole('textbox', { name: label }), 'docs.python.org{Enter}');
    expect(stored().web.allowedHosts).toEqual(['docs.python.org']);
  });
});
