import { join } from 'node:path';
import { inspect } from 'node:util';
import electronLog from 'electron-log/node';
import type { Logger } from '../../platform/logging/logger';

/** Past this the file is renamed to main.old.log and a new one starts: two files, bounded. */
export const logFileMaxBytes = 1024 * 1024;

export const logFileName = 'main.log';

export interface FileLogger extends Logger {
  /** Where the lines go: the Help menu shows it, the startup-failure dialog names it. */
  readonly file: string;
}

/**
 * The desktop app's log: every line to a rotating file in the OS logs folder (so a user has something
 * to send), and to `also` (stderr) as before. electron-log's Node flavour is used on purpose: the
 * Electron one also opens an IPC channel for renderer logging, which the page has no business with.
 */
export function createFileLogger(logsDir: string, scope: string, also?: Logger): FileLogger {
  const file = join(logsDir, logFileName);
  const log = electronLog.create({ logId: `familiar-${scope}` });
  log.transports.file.resolvePathFn = () => file;
  log.transports.file.maxSize = logFileMaxBytes;
  log.transports.console.level = false;
  const scoped = log.scope(scope);
  return {
    file,
    info(message) {
      scoped.info(message);
      also?.info(message);
    },
    warn(message) {
      scoped.warn(message);
      also?.warn(message);
    },
    error(message, error) {
      scoped.error(error === undefined ? message : `${message}: ${inspect(error, { depth: 4 })}`);
      also?.error(message, error);
    },
  };
}
