import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppInfo } from '../../shared/ipc/app';
import type { FamiliarApi } from '../../shared/ipc/contract';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { useAppStore } from './app-store';

const info: AppInfo = {
  name: 'Familiar',
  version: '9.8.7',
  mode: 'browser',
  platform: 'linux',
  workspacePath: '/home/ada/notes',
  homePath: '/home/ada/.familiar',
};
let answer: Result<AppInfo> = ok(info);
// The chat pane loads its own data too: an empty history and no provider (the first-run setup).
const otherAnswers: Record<string, Result<unknown>> = {
  'conversations.list': ok({ conversations: [] }),
  'approvals.list': ok({ pending: [] }),
  'providers.status': ok({
    provider: null,
    hasApiKey: false,
    needsApiKey: false,
    configured: false,
    keyStorage: 'plaintext-file',
  }),
};
const invoke = vi.fn((name: string) =>
  Promise.resolve(name === 'app.info' ? answer : (otherAnswers[name] ?? err('unknown_call', name))),
);

beforeAll(() => {
  // Stands where the preload puts the API in the desktop app.
  const api = { invoke, on: () => () => undefined } as unknown as FamiliarApi;
  Object.defineProperty(window, 'familiar', { value: api, configurable: true });
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

async function renderApp() {
  const { App } = await import('./App');
  return render(<App />);
}

describe('App', () => {
  it('shows the workspace path answered by app.info', async () => {
    await renderApp();
    expect(await screen.findByText('/home/ada/notes')).toBeTruthy();
    expect(invoke).toHaveBeenCalledWith('app.info', {});
    expect(screen.getByRole('main', { name: 'Chat' })).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Workspace' })).toBeTruthy();
  });

  it('opens settings with Ctrl+, and shows the version and data folder', async () => {
    await renderApp();
    await screen.findByText('/home/ada/notes');
    act(() => {
      fireEvent.keyDown(window, { key: ',', ctrlKey: true });
    });
    expect(screen.getByText('9.8.7')).toBeTruthy();
    expect(screen.getByText('/home/ada/.familiar')).toBeTruthy();
  });

  it('says plainly when the core cannot answer', async () => {
    useAppStore.setState({ info: null, loadError: null });
    answer = err('internal_error', 'disk on fire');
    await renderApp();
    expect((await screen.findByRole('alert')).textContent).toContain('disk on fire');
  });
});
