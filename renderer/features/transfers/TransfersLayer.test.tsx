import { pageApi } from '../../test-support/page-api';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { err, ok } from '../../../shared/result';
import { useAppStore } from '../../app/app-store';
import { TransfersLayer } from './TransfersLayer';
import { transfersActions } from './transfers-store';

const offer = {
  id: 'offer-1',
  conversationId: 'c1',
  path: 'out/report.csv',
  name: 'report.csv',
  bytes: 2048,
  createdAt: '2026-11-23T10:00:00.000Z',
};

const setMode = (mode: 'desktop' | 'browser') =>
  useAppStore.setState({
    info: { name: 'Familiar', version: '0', mode, platform: 'linux', workspacePath: '/w', homePath: '/h' },
  });

beforeEach(() => {
  pageApi.reset();
  transfersActions.reset();
  pageApi.answer('transfers.pending', () => ok({ offers: [] }));
});
afterEach(() => vi.restoreAllMocks());

describe('TransfersLayer', () => {
  it('browser mode: an offer shows a Download action that fetches the bytes, starts a download and answers saved', async () => {
    setMode('browser');
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    pageApi.answer('transfers.fetch', () => ok({ name: 'report.csv', data: btoa('a,b\n'), bytes: 4 }));
    pageApi.answer('transfers.answer', ({ id }) => ok({ id }));
    render(<TransfersLayer />);
    act(() => pageApi.emit('transfers.offered', offer));
    expect(await screen.findByText(/offers report\.csv \(2 kB\)/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(pageApi.calls.map((call) => call.name)).toContain('transfers.answer'));
    expect(clicked).toEqual(['report.csv']);
    expect(pageApi.calls.find((call) => call.name === 'transfers.answer')?.input).toEqual({
      id: 'offer-1',
      saved: true,
    });
    expect(screen.queryByText(/offers report\.csv/)).toBeNull();
  });

  it('desktop: Save… asks main for the native dialog; Dismiss answers saved: false', async () => {
    setMode('desktop');
    pageApi.answer('transfers.saveAs', () => ok({ saved: true, path: '/home/u/report.csv' }));
    pageApi.answer('transfers.answer', ({ id }) => ok({ id }));
    render(<TransfersLayer />);
    act(() => pageApi.emit('transfers.offered', offer));
    await userEvent.click(await screen.findByRole('button', { name: 'Save…' }));
    await waitFor(() => expect(screen.queryByText(/offers report\.csv/)).toBeNull());
    expect(pageApi.calls.find((call) => call.name === 'transfers.saveAs')?.input).toEqual({ id: 'offer-1' });
    act(() => pageApi.emit('transfers.offered', { ...offer, id: 'offer-2' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(pageApi.calls.find((call) => call.name === 'transfers.answer')?.input).toEqual({
      id: 'offer-2',
      saved: false,
    });
  });

  it('uploads picked and dropped files as base64, shows where they went and keeps their notes for the chat', async () => {
    setMode('browser');
    pageApi.answer('transfers.upload', ({ name, data }) =>
      name === 'bad;name.txt'
        ? err('invalid_path', "'bad;name.txt' cannot be an upload's name")
        : ok({ name, path: `uploads/${name}`, bytes: atob(data).length, note: `[uploaded ${name}]` }),
    );
    render(<TransfersLayer />);
    await userEvent.upload(screen.getByTestId('upload-input'), new File(['hello'], 'notes.txt'));
    expect(await screen.findByText('Uploaded notes.txt to uploads/notes.txt')).toBeTruthy();
    expect(pageApi.calls.find((call) => call.name === 'transfers.upload')?.input).toEqual({
      name: 'notes.txt',
      data: btoa('hello'),
    });
    const dropped = new File(['x'], 'bad;name.txt');
    fireEvent.drop(window, { dataTransfer: { types: ['Files'], files: [dropped] } });
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('Could not upload bad;name.txt'),
    );
    expect(transfersActions.takeUploadNotes()).toEqual(['[uploaded notes.txt]']);
    expect(transfersActions.takeUploadNotes()).toEqual([]);
  });

  it('shows offers still pending in main when it mounts (after a reload)', async () => {
    setMode('browser');
    pageApi.answer('transfers.pending', () => ok({ offers: [offer] }));
    render(<TransfersLayer />);
    expect(await screen.findByText(/offers report\.csv/)).toBeTruthy();
  });
});
