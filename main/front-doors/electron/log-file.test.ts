import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { createFileLogger, logFileMaxBytes } from './log-file';

describe('the desktop log file', () => {
  const tempDir = useTempDirs();

  it('writes every level to main.log in the logs folder, errors with their details, and to stderr too', async () => {
    const dir = await tempDir();
    const stderr = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const logger = createFileLogger(dir, 'desktop', stderr);
    expect(logger.file).toBe(join(dir, 'main.log'));
    logger.info('started');
    logger.warn('slow disk');
    logger.error('could not start', new Error('settings.json is damaged'));
    const text = await readFile(logger.file, 'utf8');
    expect(text).toMatch(/\[info\].*started/);
    expect(text).toMatch(/\[warn\].*slow disk/);
    expect(text).toMatch(/\[error\].*could not start: Error: settings.json is damaged/);
    expect(stderr.error).toHaveBeenCalledWith('could not start', expect.any(Error));
  });

  it('rotates instead of growing without bound', async () => {
    const dir = await tempDir();
    const logger = createFileLogger(dir, 'rotate');
    await writeFile(logger.file, 'x'.repeat(logFileMaxBytes + 10));
    logger.info('after the limit');
    expect((await stat(logger.file)).size).toBeLessThan(1000);
    expect((await stat(join(dir, 'main.old.log'))).size).toBeGreaterThan(logFileMaxBytes);
  });
});
