import { afterEach } from 'vitest';

/** For a test file: what a test hands over is closed after it, all at once (servers, kits, sessions). */
export function useClosers(): (...closers: (() => Promise<void>)[]) => void {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });
  return (...closers) => {
    closing.push(...closers);
  };
}
