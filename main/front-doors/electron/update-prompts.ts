import type { MessageBoxOptions } from 'electron';
import { nativeText } from '../../../shared/i18n/native-strings';
import type { NativeText } from '../../../shared/i18n/native-strings';
import type { UpdateInfo, UpdateNotice, UpdatePrompts } from './updater';

/**
 * The native dialogs of the update flow. Each question puts the cautious answer on the cancel
 * button, so closing the dialog or pressing Escape never counts as consent.
 */
export const downloadQuestion = (
  update: UpdateInfo,
  currentVersion: string,
  t: NativeText = nativeText('en'),
): MessageBoxOptions => ({
  type: 'info',
  title: t('update.availableTitle'),
  message: t('update.availableMessage', { version: update.version }),
  detail: t('update.availableDetail', { current: currentVersion }),
  buttons: [t('update.download'), t('update.notNow')],
  defaultId: 0,
  cancelId: 1,
  noLink: true,
});

export const restartQuestion = (update: UpdateInfo, t: NativeText = nativeText('en')): MessageBoxOptions => ({
  type: 'info',
  title: t('update.readyTitle'),
  message: t('update.readyMessage', { version: update.version }),
  detail: t('update.readyDetail'),
  buttons: [t('update.restartNow'), t('update.later')],
  defaultId: 0,
  cancelId: 1,
  noLink: true,
});

export function noticeDialog(notice: UpdateNotice, t: NativeText = nativeText('en')): MessageBoxOptions {
  const base = { buttons: [t('update.ok')], defaultId: 0, cancelId: 0, noLink: true };
  switch (notice.kind) {
    case 'up-to-date':
      return {
        ...base,
        type: 'info',
        title: t('update.upToDateTitle'),
        message: t('update.upToDateMessage', { version: notice.currentVersion }),
      };
    case 'unsupported':
      return {
        ...base,
        type: 'info',
        title: t('update.title'),
        message: t('update.unsupported'),
        detail: notice.reason,
      };
    case 'busy':
      return {
        ...base,
        type: 'info',
        title: t('update.title'),
        message: t('update.busy'),
      };
    case 'failed':
      return {
        ...base,
        type: 'warning',
        title: t('update.failedTitle'),
        message: t('update.failedMessage'),
        detail: notice.message,
      };
  }
}

/** A message box shown over the Familiar window; resolves to the index of the button pressed. */
export type ShowMessageBox = (options: MessageBoxOptions) => Promise<{ response: number }>;

/** In both questions the first button is the yes; any other answer, or none, is a no. */
const yesButton = 0;

export function createUpdatePrompts(show: ShowMessageBox, t: NativeText = nativeText('en')): UpdatePrompts {
  const isYes = async (options: MessageBoxOptions) => (await show(options)).response === yesButton;
  return {
    confirmDownload: (update, currentVersion) => isYes(downloadQuestion(update, currentVersion, t)),
    confirmRestart: (update) => isYes(restartQuestion(update, t)),
    notify: async (notice) => {
      await show(noticeDialog(notice, t));
    },
  };
}
