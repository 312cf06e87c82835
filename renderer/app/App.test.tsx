import { pageApi } from '../test-support/page-api';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../shared/ipc/app';
import { defaultPolicy } from '../../shared/policy';
import { err, ok } from '../../shared/result';
import { defaultSettings } from '../../shared/settings';
import { App } from './App';
import { useAppStore } from './app-store';

const info: AppInfo = {
  name: 'Familiar',
  version: '9.8.7',
  mode: 'browser',
  platform: 'linux',
  workspacePath: '/home/ada/notes',
  homePath: '/home/ada/.familiar',
};

beforeEach(() => {
  pageApi.reset();
  useAppStore.setState({ info: null, loadError: null });
  pageApi.answer('app.info', () => ok(info));
  pageApi.answer('settings.get', () => ok(defaultSettings()));
  pageApi.answer('tools.list', () => ok({ memoryEnabled: true, tools: [] }));
  pageApi.answer('approvals.list', () => ok({ pending: [] }));
  pageApi.answer('workspace.listDir', ({ path }) => ok({ path, entries: [], omitted: 0 }));
  pageApi.answer('policy.get', () => ok({ policy: defaultPolicy(), loadError: null }));
  // The chat pane loads its own data too: an empty history and no provider (the first-run setup).
  pageApi.answer('conversations.list', () => ok({ conversations: [] }));
  pageApi.answer('providers.status', () =>
    ok({ provider: null, hasApiKey: false, needsApiKey: false, configured: false, keyStorage: 'plaintext-file' }),
  );
  pageApi.answer('persona.info', () =>
    ok({
      dir: '/home/ada/.familiar/workspace',
      dailyNotesDir: '/home/ada/.familiar/workspace/memory',
      files: [],
      totalCap: 60_000,
    }),
  );
});

describe('App', () => {
  it('shows the workspace path answered by app.info and lists it', async () => {
    render(<App />);
    expect(await screen.findByText('/home/ada/notes')).toBeTruthy();
    expect(screen.getByRole('main', { name: 'Chat' })).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Workspace' })).toBeTruthy();
    expect(pageApi.calls.map((call) => call.name)).toEqual(
      expect.arrayContaining([
        'app.info',
        'settings.get',
        'tools.list',
        'approvals.list',
        'workspace.listDir',
        'conversations.list',
        'providers.status',
      ]),
    );
  });

  it('opens settings with Ctrl+, and shows the version and data folder', async () => {
    render(<App />);
    await screen.findByText('/home/ada/notes');
    act(() => {
      fireEvent.keyDown(window, { key: ',', ctrlKey: true });
    });
    expect(await screen.findByText('9.8.7')).toBeTruthy();
    expect(screen.getByText('/home/ada/.familiar')).toBeTruthy();
  });

  it('opens the keyboard shortcuts with ?, but not while typing', async () => {
    render(<App />);
    await screen.findByText('/home/ada/notes');
    const input = document.createElement('input');
    document.body.append(input);
    act(() => {
      fireEvent.keyDown(input, { key: '?' });
    });
    const help = document.querySelector<HTMLDialogElement>('dialog[aria-labelledby="shortcuts-title"]');
    expect(help?.open).toBe(false);
    act(() => {
      fireEvent.keyDown(window, { key: '?' });
    });
    expect(help?.open).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' }).textContent).toContain(
      'Approve the request on screen',
    );
    input.remove();
  });

  it('says plainly when the core cannot answer', async () => {
    pageApi.answer('app.info', () => err('internal_error', 'disk on fire'));
    render(<App />);
    expect((await screen.findByText(/disk on fire/)).textContent).toContain('Familiar could not load: disk on fire');
  });

  it('applies the theme and the language from the settings', async () => {
    pageApi.answer('settings.get', () => ok({ ...defaultSettings(), ui: { theme: 'dark', language: 'zh' } }));
    render(<App />);
    expect(await screen.findByRole('button', { name: '设置' })).toBeTruthy();
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(document.documentElement.lang).toBe('zh');
  });
});
