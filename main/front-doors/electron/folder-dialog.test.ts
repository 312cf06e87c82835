import type { OpenDialogOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { nativeText } from '../../../shared/i18n/native-strings';
import { chooseFolderWith } from './folder-dialog';

describe('the native folder picker', () => {
  it('asks for one folder over the window and returns it', async () => {
    const showOpenDialog = vi.fn((_parent: unknown, _options: OpenDialogOptions) =>
      Promise.resolve({ canceled: false, filePaths: ['/home/me/notes'] }),
    );
    const window = { id: 1 };
    expect(await chooseFolderWith({ showOpenDialog } as never, window as never, '/home/me')).toBe('/home/me/notes');
    expect(showOpenDialog).toHaveBeenCalledWith(window, expect.objectContaining({ defaultPath: '/home/me' }));
    expect(showOpenDialog.mock.calls[0]?.[1].properties).toEqual(expect.arrayContaining(['openDirectory']));
  });

  it('answers null when cancelled', async () => {
    const showOpenDialog = vi.fn(() => Promise.resolve({ canceled: true, filePaths: [] }));
    expect(await chooseFolderWith({ showOpenDialog }, null, '/')).toBeNull();
  });

  it('titles the dialog and its button in the chosen language', async () => {
    const showOpenDialog = vi.fn((_options: OpenDialogOptions) => Promise.resolve({ canceled: true, filePaths: [] }));
    await chooseFolderWith({ showOpenDialog }, null, '/', nativeText('ru'));
    expect(showOpenDialog.mock.calls[0]?.[0]).toMatchObject({ title: 'Открыть папку', buttonLabel: 'Открыть' });
  });
});
