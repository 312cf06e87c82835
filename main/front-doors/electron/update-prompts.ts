import type { MessageBoxOptions } from 'electron';
import type { UpdateInfo, UpdateNotice, UpdatePrompts } from './updater';

/**
 * The native dialogs of the update flow. Each question puts the cautious answer on the cancel
 * button, so closing the dialog or pressing Escape never counts as consent.
 */
export const downloadQuestion = (update: UpdateInfo, currentVersion: string): MessageBoxOptions => ({
  type: 'info',
  title: 'Update available',
  message: `Familiar ${update.version} is available.`,
  detail: `You have ${currentVersion}. Download it now? Nothing is downloaded unless you choose Download.`,
  buttons: ['Download', 'Not Now'],
  defaultId: 0,
  cancelId: 1,
  noLink: true,
});

export const restartQuestion = (update: UpdateInfo): MessageBoxOptions => ({
  type: 'info',
  title: 'Update ready',
  message: `Familiar ${update.version} has been downloaded.`,
  detail: 'Restart now to install it, or it will be installed the next time you quit Familiar.',
  buttons: ['Restart Now', 'Later'],
  defaultId: 0,
  cancelId: 1,
  noLink: true,
});

export function noticeDialog(notice: UpdateNotice): MessageBoxOptions {
  const base = { buttons: ['OK'], defaultId: 0, cancelId: 0, noLink: true };
  switch (notice.kind) {
    case 'up-to-date':
      return {
        ...base,
        type: 'info',
        title: 'No updates',
        message: `Familiar ${notice.currentVersion} is the latest version.`,
      };
    case 'unsupported':
      return {
        ...base,
        type: 'info',
        title: 'Updates',
        message: 'This copy of Familiar does not update itself.',
        detail: notice.reason,
      };
    case 'busy':
      return {
        ...base,
        type: 'info',
        title: 'Updates',
        message: 'Familiar is already checking for or downloading an update.',
      };
    case 'failed':
      return {
        ...base,
        type: 'warning',
        title: 'Update failed',
        message: 'Familiar could not update.',
        detail: notice.message,
      };
  }
}

/** A message box shown over the Familiar window; resolves to the index of the button pressed. */
export type ShowMessageBox = (options: MessageBoxOptions) => Promise<{ response: number }>;

/** In both questions the first button is the yes; any other answer, or none, is a no. */
const yesButton = 0;

export function createUpdatePrompts(show: ShowMessageBox): UpdatePrompts {
  const isYes = async (options: MessageBoxOptions) => (await show(options)).response === yesButton;
  return {
    confirmDownload: (update, currentVersion) => isYes(downloadQuestion(update, currentVersion)),
    confirmRestart: (update) => isYes(restartQuestion(update)),
    notify: async (notice) => {
      await show(noticeDialog(notice));
    },
  };
}
