import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { MessageBoxOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../platform/logging/logger';
import { nativeText } from '../../../shared/i18n/native-strings';
import { createUpdatePrompts, downloadQuestion, restartQuestion } from './update-prompts';
import { createUpdateController, updateSupport } from './updater';
import type { UpdateInfo, UpdateNotice, UpdatePrompts, UpdaterPort } from './updater';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const next: UpdateInfo = { version: '0.2.0' };

/** An updater that behaves like electron-updater's, recording what it was asked to do. */
function fakeUpdater(available: UpdateInfo | undefined, failure?: { check?: Error; download?: Error }) {
  const calls: string[] = [];
  const updater: UpdaterPort = {
    autoDownload: true, // electron-updater's default
    autoInstallOnAppQuit: true,
    checkForUpdates: () => {
      calls.push(`check autoDownload=${String(updater.autoDownload)}`);
      if (failure?.check) return Promise.reject(failure.check);
      return Promise.resolve({
        isUpdateAvailable: available !== undefined,
        updateInfo: available ?? { version: '0.1.0' },
      });
    },
    downloadUpdate: () => {
      calls.push('download');
      return failure?.download ? Promise.reject(failure.download) : Promise.resolve([]);
    },
    quitAndInstall: () => void calls.push('quitAndInstall'),
  };
  return { updater, calls };
}

function scriptedPrompts(answers: { download?: boolean; restart?: boolean }) {
  const asked: string[] = [];
  const notices: UpdateNotice[] = [];
  const prompts: UpdatePrompts = {
    confirmDownload: (update) => (asked.push(`download ${update.version}`), Promise.resolve(answers.download ?? false)),
    confirmRestart: (update) => (asked.push(`restart ${update.version}`), Promise.resolve(answers.restart ?? false)),
    notify: (notice) => (notices.push(notice), Promise.resolve()),
  };
  return { prompts, asked, notices };
}

function controller(updater: UpdaterPort, prompts: UpdatePrompts) {
  return createUpdateController({
    updater,
    prompts,
    support: { supported: true },
    currentVersion: '0.1.0',
    logger: quiet,
  });
}

describe('the update controller', () => {
  it('turns off automatic download before it ever checks', async () => {
    const { updater, calls } = fakeUpdater(next);
    await controller(updater, scriptedPrompts({}).prompts).check('startup');
    expect(calls[0]).toBe('check autoDownload=false');
  });

  it('never downloads when the user declines', async () => {
    const { updater, calls } = fakeUpdater(next);
    const { prompts, asked } = scriptedPrompts({ download: false });
    const updates = controller(updater, prompts);
    expect(await updates.check('startup')).toBe('declined');
    expect(await updates.check('menu')).toBe('declined');
    expect(asked).toEqual(['download 0.2.0', 'download 0.2.0']);
    expect(calls).not.toContain('download');
  });

  it('downloads only after a yes, then installs only after a second yes', async () => {
    const { updater, calls } = fakeUpdater(next);
    const { prompts, asked } = scriptedPrompts({ download: true, restart: true });
    expect(await controller(updater, prompts).check('startup')).toBe('installing');
    expect(asked).toEqual(['download 0.2.0', 'restart 0.2.0']);
    expect(calls).toEqual(['check autoDownload=false', 'download', 'quitAndInstall']);
  });

  it('leaves a downloaded update for the next quit when the user says later, and offers it again from the menu', async () => {
    const { updater, calls } = fakeUpdater(next);
    const answers = { download: true, restart: false };
    const { prompts } = scriptedPrompts(answers);
    const updates = controller(updater, prompts);
    expect(await updates.check('startup')).toBe('install-on-quit');
    expect(updater.autoInstallOnAppQuit).toBe(true);
    answers.restart = true;
    expect(await updates.check('menu')).toBe('installing');
    expect(calls.filter((call) => call === 'download')).toHaveLength(1);
  });

  it('is silent at start-up when there is nothing new, and says so when asked from the menu', async () => {
    const { updater } = fakeUpdater(undefined);
    const { prompts, asked, notices } = scriptedPrompts({ download: true });
    const updates = controller(updater, prompts);
    expect(await updates.check('startup')).toBe('up-to-date');
    expect(notices).toEqual([]);
    expect(await updates.check('menu')).toBe('up-to-date');
    expect(notices).toEqual([{ kind: 'up-to-date', currentVersion: '0.1.0' }]);
    expect(asked).toEqual([]);
  });

  it('reports a failed check only to a user who asked, and can check again', async () => {
    const { updater } = fakeUpdater(next, { check: new Error('net::ERR_INTERNET_DISCONNECTED') });
    const { prompts, notices } = scriptedPrompts({});
    const updates = controller(updater, prompts);
    expect(await updates.check('startup')).toBe('failed');
    expect(notices).toEqual([]);
    expect(await updates.check('menu')).toBe('failed');
    expect(notices).toEqual([{ kind: 'failed', message: 'net::ERR_INTERNET_DISCONNECTED' }]);
  });

  it('tells the user when a download they agreed to fails', async () => {
    const { updater, calls } = fakeUpdater(next, { download: new Error('sha512 checksum mismatch') });
    const { prompts, notices } = scriptedPrompts({ download: true, restart: true });
    expect(await controller(updater, prompts).check('startup')).toBe('failed');
    expect(notices).toEqual([{ kind: 'failed', message: 'sha512 checksum mismatch' }]);
    expect(calls).not.toContain('quitAndInstall');
  });

  it('refuses a second check while one is waiting for the user', async () => {
    const { updater, calls } = fakeUpdater(next);
    let answer: (yes: boolean) => void = () => undefined;
    const { prompts, notices } = scriptedPrompts({});
    prompts.confirmDownload = () => new Promise((resolve) => (answer = resolve));
    const updates = controller(updater, prompts);
    const first = updates.check('startup');
    await Promise.resolve();
    await Promise.resolve();
    expect(await updates.check('menu')).toBe('busy');
    expect(notices).toEqual([{ kind: 'busy' }]);
    answer(false);
    expect(await first).toBe('declined');
    expect(calls.filter((call) => call.startsWith('check'))).toHaveLength(1);
  });

  it('does nothing but explain in a copy that cannot update itself', async () => {
    const { updater, calls } = fakeUpdater(next);
    const { prompts, notices } = scriptedPrompts({ download: true });
    const updates = createUpdateController({
      updater,
      prompts,
      support: { supported: false, reason: 'portable' },
      currentVersion: '0.1.0',
      logger: quiet,
    });
    expect(await updates.check('startup')).toBe('unsupported');
    expect(notices).toEqual([]);
    expect(await updates.check('menu')).toBe('unsupported');
    expect(notices).toEqual([{ kind: 'unsupported', reason: 'portable' }]);
    expect(calls).toEqual([]);
  });
});

describe('updateSupport', () => {
  const packaged = { isPackaged: true, env: {}, linuxPackageType: undefined, signed: true };
  it.each([
    [{ ...packaged, isPackaged: false, platform: 'darwin' as const }, false],
    [{ ...packaged, platform: 'darwin' as const }, true],
    [{ ...packaged, platform: 'darwin' as const, signed: false }, false], // Squirrel.Mac cannot install it
    [{ ...packaged, platform: 'win32' as const, signed: false }, true], // NSIS installs unsigned updates
    [{ ...packaged, platform: 'linux' as const, signed: false, env: { APPIMAGE: '/a.AppImage' } }, true],
    [{ ...packaged, platform: 'win32' as const }, true],
    [{ ...packaged, platform: 'win32' as const, env: { PORTABLE_EXECUTABLE_DIR: 'D:\\apps' } }, false],
    [{ ...packaged, platform: 'linux' as const, env: { APPIMAGE: '/home/u/Familiar.AppImage' } }, true],
    [{ ...packaged, platform: 'linux' as const, linuxPackageType: 'deb' }, true],
    [{ ...packaged, platform: 'linux' as const }, false], // tar.gz
  ])('%j → supported: %s', (facts, supported) => {
    expect(updateSupport(facts).supported).toBe(supported);
  });
});

describe('the update dialogs', () => {
  it('count only the first button as consent: Not Now, Escape or closing the dialog is a no', async () => {
    for (const [response, expected] of [
      [0, true],
      [1, false],
    ] as const) {
      const shown: MessageBoxOptions[] = [];
      const prompts = createUpdatePrompts((options) => (shown.push(options), Promise.resolve({ response })));
      expect(await prompts.confirmDownload(next, '0.1.0')).toBe(expected);
      expect(await prompts.confirmRestart(next)).toBe(expected);
      expect(shown.map((options) => options.buttons?.[response])).toEqual(
        expected ? ['Download', 'Restart Now'] : ['Not Now', 'Later'],
      );
    }
    // Escape and the window's close button answer with cancelId.
    expect(downloadQuestion(next, '0.1.0').cancelId).toBe(1);
    expect(restartQuestion(next).cancelId).toBe(1);
  });

  it('name the versions involved', () => {
    expect(downloadQuestion(next, '0.1.0')).toMatchObject({ message: 'Familiar 0.2.0 is available.' });
    expect(downloadQuestion(next, '0.1.0').detail).toContain('0.1.0');
  });

  it('speak the chosen language', async () => {
    const shown: MessageBoxOptions[] = [];
    const prompts = createUpdatePrompts(
      (options) => (shown.push(options), Promise.resolve({ response: 1 })),
      nativeText('ru'),
    );
    await prompts.confirmDownload(next, '0.1.0');
    await prompts.notify({ kind: 'busy' });
    expect(shown[0]).toMatchObject({ message: 'Доступен Familiar 0.2.0.', buttons: ['Скачать', 'Не сейчас'] });
    expect(shown[1]).toMatchObject({ title: 'Обновления', buttons: ['OK'] });
  });
});

describe('browser mode', () => {
  /** Every module a file reaches through relative imports (type-only imports included, to be strict). */
  function reachable(entry: string, seen = new Set<string>()): Set<string> {
    if (seen.has(entry)) return seen;
    seen.add(entry);
    for (const [, specifier] of readFileSync(entry, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const base = resolve(dirname(entry), specifier!);
      const file = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (file !== undefined) reachable(file, seen);
    }
    return seen;
  }

  it('never loads the updater: its entry point reaches nothing in main/front-doors/electron/', () => {
    const main = join(import.meta.dirname, '..', '..');
    const inElectron = (entry: string) =>
      [...reachable(join(main, entry))].filter((file) =>
        relative(main, file).startsWith(join('front-doors', 'electron') + sep),
      );
    // The scan does see the adapter from the desktop entry, so an empty answer below means something.
    expect(inElectron('index.ts').map((file) => relative(main, file))).toContain(
      join('front-doors', 'electron', 'desktop-updates.ts'),
    );
    expect(inElectron('serve.ts')).toEqual([]);
  });
});
