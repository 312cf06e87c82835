import { describe, expect, it } from 'vitest';
import type { AnchoredFiles } from './anchored-batch';
import { pickFiles } from './anchored-pick';

const batch: AnchoredFiles = {
  mode: 'proc-fd',
  root: { fd: 3, path: '/w', dev: 1, ino: 2 },
  dirs: [
    { rel: '', dev: 1, ino: 2 },
    { rel: 'src', dev: 1, ino: 5 },
  ],
  dirOf: Int32Array.from([0, 1, 1]),
  names: ['a.txt', 'b.ts', 'c.ts'],
  hardLinks: 'refuse',
  opened: Int32Array.from([40, -1, 41]),
};

describe('pickFiles', () => {
  it('names the files picked under the same root and folders, in the order given, without the walk’s descriptors', () => {
    const picked = pickFiles(batch, [2, 0]);
    expect(picked.names).toEqual(['c.ts', 'a.txt']);
    expect([...picked.dirOf]).toEqual([1, 0]);
    expect(picked.dirs).toBe(batch.dirs);
    expect(picked.root).toBe(batch.root);
    expect(picked.hardLinks).toBe('refuse');
    // Descriptors 40 and 41 stay the first batch's to close: the picked files are opened again.
    expect(picked.opened).toBeUndefined();
  });
});
