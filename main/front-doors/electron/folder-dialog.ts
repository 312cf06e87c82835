import type { BrowserWindow, Dialog, OpenDialogOptions } from 'electron';

export const folderDialogOptions = (defaultPath: string): OpenDialogOptions => ({
  title: 'Open Folder',
  buttonLabel: 'Open',
  defaultPath,
  // createDirectory: macOS offers "New Folder" in the dialog; other systems always do.
  properties: ['openDirectory', 'createDirectory'],
});

/** The native folder picker over the window (sheet on macOS); null when the user cancelled. */
export async function chooseFolderWith(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  parent: BrowserWindow | null,
  defaultPath: string,
): Promise<string | null> {
  const options = folderDialogOptions(defaultPath);
  const answer = parent === null ? await dialog.showOpenDialog(options) : await dialog.showOpenDialog(parent, options);
  return answer.canceled ? null : (answer.filePaths[0] ?? null);
}
