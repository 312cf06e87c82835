import { readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openFileLimit, presizeDescriptorTable } from './descriptor-table';

/** This process's descriptors open on /dev/null now. */
function nullDescriptors(): number {
  let count = 0;
  for (const name of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${name}`) === '/dev/null') count += 1;
    } catch {
      // Closed while listed (the listing's own descriptor).
    }
  }
  return count;
}

describe.runIf(process.platform === 'linux')('presizeDescriptorTable', () => {
  it('reads the soft open-file limit', () => {
    expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('opens descriptors up to the number asked for, then closes every one of them', () => {
    const before = nullDescriptors();
    const highest = presizeDescriptorTable(400, 100_000);
    expect(highest).toBeGreaterThanOrEqual(400);
    expect(nullDescriptors()).toBe(before);
  });

  it('opens nothing where the open-file limit leaves too little room (1,024 beyond what it opens)', () => {
    expect(presizeDescriptorTable(400, 400 + 1023)).toBe(-1);
    expect(presizeDescriptorTable(400, 400 + 1024)).toBeGreaterThanOrEqual(400);
  });
});
