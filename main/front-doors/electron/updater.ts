import { messageOf } from '../../../shared/errors';
import type { Logger } from '../../platform/logging/logger';

/**
 * Updates from GitHub Releases (electron-builder.yml `publish`), checked at start and from the menu,
 * and never downloaded until the user says yes in a native dialog. Only the desktop app has this:
 * browser mode starts from main/serve.ts and never imports main/front-doors/electron/ at all.
 *
 * The controller takes the updater and the dialogs as parameters so the consent rules are tested
 * without Electron; desktop-updates.ts hands it electron-updater's autoUpdater and real dialogs.
 */

/** The part of electron-updater's AppUpdater the controller uses. */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<{ isUpdateAvailable: boolean; updateInfo: UpdateInfo } | null>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
}

export interface UpdateInfo {
  readonly version: string;
  readonly releaseName?: string | null;
}

export type UpdateNotice =
  | { readonly kind: 'up-to-date'; readonly currentVersion: string }
  | { readonly kind: 'unsupported'; readonly reason: string }
  | { readonly kind: 'busy' }
  | { readonly kind: 'failed'; readonly message: string };

/** The questions and notices the user sees; each question resolves true only on an explicit yes. */
export interface UpdatePrompts {
  confirmDownload(update: UpdateInfo, currentVersion: string): Promise<boolean>;
  confirmRestart(update: UpdateInfo): Promise<boolean>;
  notify(notice: UpdateNotice): Promise<void>;
}

export type UpdateSupport = { readonly supported: true } | { readonly supported: false; readonly reason: string };

export interface InstallationFacts {
  readonly isPackaged: boolean;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** electron-builder writes resources/package-type for deb/rpm/pacman builds. */
  readonly linuxPackageType: string | undefined;
  /** The build was code-signed (build-info.ts): macOS installs updates only into a signed app. */
  readonly signed: boolean;
}

/**
 * Which copies can update themselves: installed ones. A portable .exe or a tar.gz has no installer
 * to run, and an unsigned macOS app cannot take an update (Squirrel.Mac refuses to install into an
 * app without a valid signature), so those are told where to download instead of failing half way,
 * after the user has already agreed to a download.
 */
export function updateSupport({
  isPackaged,
  platform,
  env,
  linuxPackageType,
  signed,
}: InstallationFacts): UpdateSupport {
  if (!isPackaged) return { supported: false, reason: 'Updates are checked only in installed builds of Familiar.' };
  const downloadInstead = 'Download the new version from the Familiar releases page instead.';
  if (platform === 'darwin' && !signed) {
    return {
      supported: false,
      reason: `This copy of Familiar is not code-signed, and macOS installs updates only into signed apps. ${downloadInstead}`,
    };
  }
  if (platform === 'win32' && env['PORTABLE_EXECUTABLE_DIR'] !== undefined) {
    return { supported: false, reason: `The portable version cannot update itself. ${downloadInstead}` };
  }
  if (platform === 'linux' && env['APPIMAGE'] === undefined && linuxPackageType !== 'deb') {
    return {
      supported: false,
      reason: `This copy (a tar.gz or an unpacked build) cannot update itself. ${downloadInstead}`,
    };
  }
  return { supported: true };
}

export type UpdateTrigger = 'startup' | 'menu';

export type UpdateOutcome =
  'unsupported' | 'busy' | 'up-to-date' | 'declined' | 'installing' | 'install-on-quit' | 'failed';

export interface UpdateController {
  check(trigger: UpdateTrigger): Promise<UpdateOutcome>;
}

export interface UpdateControllerOptions {
  readonly updater: UpdaterPort;
  readonly prompts: UpdatePrompts;
  readonly support: UpdateSupport;
  readonly currentVersion: string;
  readonly logger: Logger;
}

export function createUpdateController({
  updater,
  prompts,
  support,
  currentVersion,
  logger,
}: UpdateControllerOptions): UpdateController {
  // electron-updater downloads as soon as it finds an update unless told not to.
  updater.autoDownload = false;
  // Once the user has agreed to download, installing when they next quit is what they asked for.
  updater.autoInstallOnAppQuit = true;

  let state: 'idle' | 'checking' | 'downloading' = 'idle';
  let downloaded: UpdateInfo | undefined;

  async function offerRestart(update: UpdateInfo): Promise<UpdateOutcome> {
    if (!(await prompts.confirmRestart(update))) return 'install-on-quit';
    updater.quitAndInstall();
    return 'installing';
  }

  async function check(trigger: UpdateTrigger): Promise<UpdateOutcome> {
    // At start-up say nothing unless there is an update to offer; from the menu always answer.
    const tell = (notice: UpdateNotice) => (trigger === 'menu' ? prompts.notify(notice) : Promise.resolve());
    if (!support.supported) {
      await tell({ kind: 'unsupported', reason: support.reason });
      return 'unsupported';
    }
    if (downloaded !== undefined) return trigger === 'menu' ? offerRestart(downloaded) : 'install-on-quit';
    if (state !== 'idle') {
      await tell({ kind: 'busy' });
      return 'busy';
    }

    state = 'checking';
    let update: UpdateInfo | undefined;
    try {
      const result = await updater.checkForUpdates();
      update = result?.isUpdateAvailable === true ? result.updateInfo : undefined;
    } catch (error) {
      state = 'idle';
      logger.warn(`Update check failed: ${messageOf(error)}`);
      await tell({ kind: 'failed', message: messageOf(error) });
      return 'failed';
    }
    if (update === undefined) {
      state = 'idle';
      await tell({ kind: 'up-to-date', currentVersion });
      return 'up-to-date';
    }

    if (!(await prompts.confirmDownload(update, currentVersion))) {
      state = 'idle';
      logger.info(`Update ${update.version} declined.`);
      return 'declined';
    }
    state = 'downloading';
    try {
      await updater.downloadUpdate();
    } catch (error) {
      logger.warn(`Update download failed: ${messageOf(error)}`);
      // The user asked for this download and is waiting for it: tell them, whatever started it.
      await prompts.notify({ kind: 'failed', message: messageOf(error) });
      return 'failed';
    } finally {
      state = 'idle';
    }
    downloaded = update;
    return offerRestart(update);
  }

  return { check };
}
