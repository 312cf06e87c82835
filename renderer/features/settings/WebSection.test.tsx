import { enterList, expectListRefused } from '../../test-support/list-field';
import { pageApi } from '../../test-support/page-api';
import { settingsLikeTheCoreInEachTest } from '../../test-support/settings-answer';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result';
import type { WebSearchSettings } from '../../../shared/settings';
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
    await expectListRefused(
      user,
      label,
      'docs.python.org https://evil.example/x',
      'Not a host or host:port: https://evil.example/x',
    );
    await enterList(user, label, 'docs.python.org');
    expect(stored().web.allowedHosts).toEqual(['docs.python.org']);
  });
});

describe('WebSection: the search service', () => {
  it('saves a SearXNG address and a Brave key (write-only: the field empties, the status says saved)', async () => {
    const saves: unknown[] = [];
    let hasBrave = false;
    const status = (search: WebSearchSettings) => ({
      search,
      hasKey: { brave: hasBrave, tavily: false },
      available: search.service === 'searxng' || (search.service === 'brave' && hasBrave),
      keyStorage: 'plaintext-file' as const,
    });
    pageApi.answer('webSearch.status', () => ok(status({ service: 'none', searxngUrl: null })));
    pageApi.answer('webSearch.save', (input) => {
      saves.push(input);
      if (input.apiKey !== undefined) hasBrave = input.apiKey !== null;
      return ok(status(input.search));
    });
    const user = userEvent.setup();
    render(<WebSection />);
    const service = await screen.findByRole('combobox', { name: 'Search service for web_search' });
    expect(screen.queryByRole('textbox', { name: 'SearXNG address' })).toBeNull();
    await user.selectOptions(service, 'searxng');
    await user.type(screen.getByRole('textbox', { name: 'SearXNG address' }), 'http://127.0.0.1:8888');
    await user.click(screen.getByRole('button', { name: 'Save search service' }));
    expect(saves).toEqual([{ search: { service: 'searxng', searxngUrl: 'http://127.0.0.1:8888' } }]);
    expect(await screen.findByText('web_search is offered to the assistant.')).toBeTruthy();

    await user.selectOptions(service, 'brave');
    const key = screen.getByLabelText('API key');
    expect(key.getAttribute('type')).toBe('password');
    expect(screen.getByRole('note').textContent).toMatch(/unencrypted/);
    await user.type(key, 'BSA-123');
    await user.click(screen.getByRole('button', { name: 'Save search service' }));
    expect(saves[1]).toEqual({ search: { service: 'brave', searxngUrl: 'http://127.0.0.1:8888' }, apiKey: 'BSA-123' });
    expect(screen.getByLabelText('API key')).toHaveProperty('value', '');
    expect(screen.getByText(/A key is saved/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove the saved key' }));
    expect(saves[2]).toEqual({ search: { service: 'brave', searxngUrl: 'http://127.0.0.1:8888' }, apiKey: null });
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^web_search is not offered:/));
  });
});
