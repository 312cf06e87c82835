import type { BrowserWindow, Dialog, OpenDialogOptions } from 'electron';
import { nativeText } from '../../../shared/i18n/native-strings';
import type { NativeText } from '../../../shared/i18n/native-strings';

export const folderDialogOptions = (defaultPath: string, t: NativeText = nativeText('en')): OpenDialogOptions => ({
  title: t('folderDialog.title'),
  buttonLabel: t('folderDialog.button'),
  defaultPath,
  // createDirectory: macOS offers "New Folder" in the dialog; other systems always do.
  properties: ['openDirectory', 'createDirectory'],
});

/** The native folder picker over the window (sheet on macOS); null when the user cancelled. */
export async function chooseFolderWith(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  parent: BrowserWindow | null,
  defaultPath: string,
  t: NativeText = nativeText('en'),
): Promise<string | null> {
  const options = folderDialogOptions(defaultPath, t);
  const answer = parent === null ? await dialog.showOpenDialog(options) : await dialog.showOpenDialog(parent, options);
  return answer.canceled ? null : (answer.filePaths[0] ?? null);
}
