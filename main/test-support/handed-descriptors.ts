import { closeSync, readFileSync } from 'node:fs';

/** The content behind a descriptor a walk handed over, which the test then closes (it owns it). */
export function readAndClose(fd: number | undefined): string | undefined {
  if (fd === undefined) return undefined;
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
