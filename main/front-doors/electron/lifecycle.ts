import { messageOf } from '../../../shared/errors';
import type { App, BrowserWindow, Event, MessageBoxOptions, WindowSessionEndEvent } from 'electron';
import { nativeText } from '../../../shared/i18n/native-strings';
import type { NativeText } from '../../../shared/i18n/native-strings';
import type { Logger } from '../../platform/logging/logger';

/** What quitting now would cut short. */
export type QuitBlocker = 'reply' | 'approval';

/** Cleanup gets this long; a stuck one must not keep an invisible process alive. */
export const disposeTimeoutMs = 10_000;

export interface QuitGuardOptions {
  readonly app: Pick<App, 'on' | 'quit'>;
  readonly blocker: () => QuitBlocker | null;
  /** Asks the user (a native dialog); true only on an explicit "Quit". */
  readonly confirm: (blocker: QuitBlocker) => Promise<boolean>;
  /** core.dispose: stops turns (their command process groups are killed), flushes transcripts, closes watchers. */
  readonly dispose: () => Promise<void>;
  readonly logger: Logger;
  readonly timeoutMs?: number;
}

export interface QuitGuard {
  /** The window's close button asks too when it would end a reply (closing the window quits). */
  guardWindow(this: void, window: Pick<BrowserWindow, 'on' | 'close'>): void;
  /** The user already agreed elsewhere (restart to install an update): quit without asking. */
  allowQuit(this: void): void;
  /**
   * Windows is ending the session (shutdown, restart, log-off): no question can be asked any more.
   * Quits through before-quit, so the core is disposed (turns stopped, transcripts flushed) once.
   */
  endSession(this: void, window: Pick<BrowserWindow, 'on'>): void;
}

/**
 * Every way out — Cmd+Q, the menu's Quit, app.quit(), closing the window, an update's quitAndInstall —
 * passes through before-quit. The first one is held back (preventDefault) until the user confirmed
 * (only if a reply or an approval would be lost) and the core is disposed, once; then quit resumes.
 */
export function installQuitGuard(options: QuitGuardOptions): QuitGuard {
  const { app, blocker, confirm, dispose, logger } = options;
  let phase: 'running' | 'asking' | 'disposing' | 'done' = 'running';
  let agreed = false;

  // Sets the phase before its first await: a second quit arriving meanwhile must see it.
  const mayQuit = async (): Promise<boolean> => {
    const what = agreed ? null : blocker();
    if (what === null) return true;
    phase = 'asking';
    try {
      agreed = await confirm(what);
    } catch (error) {
      logger.error('Could not ask before quitting', error);
      agreed = true;
    }
    phase = 'running';
    return agreed;
  };

  const cleanUpThenQuit = async () => {
    if (!agreed && blocker() !== null && !(await mayQuit())) return;
    phase = 'disposing';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? disposeTimeoutMs);
    });
    try {
      const outcome = await Promise.race([dispose().then(() => 'done' as const), timeout]);
      if (outcome === 'timeout') logger.warn('Cleanup did not finish in time; quitting anyway.');
    } catch (error) {
      logger.error('Cleanup before quitting failed', error);
    } finally {
      clearTimeout(timer);
    }
    phase = 'done';
    app.quit();
  };

  app.on('before-quit', (event: Event) => {
    if (phase === 'done') return;
    event.preventDefault();
    // A second Cmd+Q while asking or cleaning up joins the quit already under way.
    if (phase === 'running') void cleanUpThenQuit();
  });

  return {
    guardWindow(window) {
      window.on('close', (event: Event) => {
        if (agreed || phase === 'disposing' || phase === 'done' || blocker() === null) return;
        event.preventDefault();
        if (phase === 'asking') return;
        void mayQuit().then((yes) => {
          if (yes) window.close();
        });
      });
    },
    allowQuit() {
      agreed = true;
    },
    endSession(window) {
      // Asked first, and may still be called off by another program: nothing is stopped yet, and
      // nothing delays the shutdown (Windows would show Familiar as "preventing" it).
      window.on('query-session-end', (event: WindowSessionEndEvent) => {
        logger.info(`Windows asks to end the session (${event.reasons.join(', ')})`);
      });
      // Final: the process has seconds left. Start the cleanup now rather than wait to be killed.
      window.on('session-end', (event: WindowSessionEndEvent) => {
        logger.info(`Windows is ending the session (${event.reasons.join(', ')}); cleaning up`);
        agreed = true;
        app.quit();
      });
    },
  };
}

/**
 * Registered first thing after taking the single-instance lock, before anything async: a second
 * launch during a slow start still reaches us and shows the window as soon as there is one.
 */
export function focusOnSecondInstance(
  app: Pick<App, 'on'>,
  currentWindow: () => Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'> | null,
): void {
  app.on('second-instance', () => {
    const window = currentWindow();
    if (window === null) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
}

export interface StartupFailureDeps {
  readonly app: Pick<App, 'releaseSingleInstanceLock' | 'exit'>;
  readonly showErrorBox: (title: string, content: string) => void;
  readonly logger: Logger;
  readonly logFile: string | undefined;
  /** The language of the moment: the system's until the settings are read. */
  readonly t?: NativeText;
}

/**
 * A start that failed must not leave an invisible process holding the single-instance lock (every
 * later launch would then quietly exit): say what happened, where the log is, and exit.
 */
export function failStartup(
  { app, showErrorBox, logger, logFile, t = nativeText('en') }: StartupFailureDeps,
  error: unknown,
): void {
  logger.error('Familiar could not start', error);
  const reason = messageOf(error);
  const where = logFile === undefined ? '' : `\n\n${t('startup.logFile', { file: logFile })}`;
  try {
    showErrorBox(t('startup.failed'), `${reason}${where}`);
  } finally {
    app.releaseSingleInstanceLock();
    app.exit(1);
  }
}

/** The question before quitting would cut something short; the cautious answer is the cancel button. */
export function quitQuestion(blocker: QuitBlocker, t: NativeText = nativeText('en')): MessageBoxOptions {
  return {
    type: 'question',
    title: t('quit.title'),
    message: t(blocker === 'reply' ? 'quit.replyMessage' : 'quit.approvalMessage'),
    detail: t(blocker === 'reply' ? 'quit.replyDetail' : 'quit.approvalDetail'),
    buttons: [t('quit.quit'), t('quit.cancel')],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}
