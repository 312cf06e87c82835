import { join } from 'node:path';
import type { BrowserWindow } from 'electron';
import { app, dialog } from 'electron';
import * as updaterModule from 'electron-updater';
import type { Logger } from '../../platform/logging/logger';
import { readAppTextSync } from '../../platform/storage/app-files';
import type { NativeText } from '../../../shared/i18n/native-strings';
import { buildInfo } from './build-info';
import { createUpdatePrompts } from './update-prompts';
import { createUpdateController, updateSupport } from './updater';
import type { UpdateController, UpdaterPort } from './updater';

type UpdaterModule = typeof updaterModule;

/**
 * Node hands an ESM importer a CommonJS module's exports as `default` and lists named exports only
 * where its lexer can see them (electron-updater defines autoUpdater with a getter it cannot).
 */
function electronAutoUpdater(): UpdaterModule['autoUpdater'] {
  return ((updaterModule as UpdaterModule & { default?: UpdaterModule }).default ?? updaterModule).autoUpdater;
}

/** electron-builder leaves a `package-type` marker (deb, rpm, …) in the resources of a Linux package. */
function linuxPackageType(): string | undefined {
  return readAppTextSync(join(process.resourcesPath, 'package-type'))?.trim();
}

/**
 * The update controller over electron-updater's autoUpdater and native dialogs on `window`.
 * `onRestartToInstall` hears the user's yes to "Restart Now", so quitting does not ask a second time.
 */
export function createDesktopUpdates(
  window: BrowserWindow,
  currentVersion: string,
  logger: Logger,
  onRestartToInstall: () => void = () => undefined,
  t?: NativeText,
): UpdateController {
  const support = updateSupport({
    isPackaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    linuxPackageType: process.platform === 'linux' ? linuxPackageType() : undefined,
    signed: buildInfo.signed,
  });
  const asked = createUpdatePrompts((options) => dialog.showMessageBox(window, options), t);
  const prompts = {
    ...asked,
    confirmRestart: async (update: Parameters<typeof asked.confirmRestart>[0]) => {
      const yes = await asked.confirmRestart(update);
      if (yes) onRestartToInstall();
      return yes;
    },
  };
  if (!support.supported) {
    // Nothing to wire: electron-updater is not even touched in a copy that cannot update.
    const inert: UpdaterPort = {
      autoDownload: false,
      autoInstallOnAppQuit: false,
      checkForUpdates: () => Promise.resolve(null),
      downloadUpdate: () => Promise.resolve(),
      quitAndInstall: () => undefined,
    };
    return createUpdateController({ updater: inert, prompts, support, currentVersion, logger });
  }

  const autoUpdater = electronAutoUpdater();
  autoUpdater.logger = {
    info: (message?: unknown) => logger.info(`updater: ${String(message)}`),
    warn: (message?: unknown) => logger.warn(`updater: ${String(message)}`),
    error: (message?: unknown) => logger.error('updater', message),
  };
  // Without a listener an 'error' event would be thrown; failures also reach the controller.
  autoUpdater.on('error', (error) => logger.warn(`updater error: ${error.message}`));
  const updater: UpdaterPort = autoUpdater;
  return createUpdateController({ updater, prompts, support, currentVersion, logger });
}
