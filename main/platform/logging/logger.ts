import { inspect } from 'node:util';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/**
 * Logs go to stderr only: stdout belongs to the MCP stdio transport and to the
 * browser-mode URL line that scripts read.
 */
export function createStderrLogger(
  scope: string,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const line = (level: string, message: string) => `[familiar:${scope}] ${level} ${message}\n`;
  return {
    info: (message) => write(line('info', message)),
    warn: (message) => write(line('warn', message)),
    error: (message, error) =>
      write(line('error', error === undefined ? message : `${message}: ${inspect(error, { depth: 4 })}`)),
  };
}
