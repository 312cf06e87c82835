import { describe, expect, it } from 'vitest';
import { walkErrors } from './ripgrep-walk';

describe('walkErrors', () => {
  it('names the folders and files ripgrep could not list or read, as the sandbox names them', () => {
    const stderr =
      './share/polkit-1/rules.d: Permission denied (os error 13)\n' +
      './b/we: ird.txt: Permission denied (os error 13)\n' +
      './gone.txt: No such file or directory (os error 2)\n';
    expect(walkErrors(stderr, '')).toEqual(['share/polkit-1/rules.d', 'b/we: ird.txt', 'gone.txt']);
    expect(walkErrors('src/locked: Permission denied (os error 13)\n', 'src')).toEqual(['src/locked']);
    expect(walkErrors('src: Permission denied (os error 13)\n', 'src')).toEqual(['src']);
    expect(walkErrors('', '')).toEqual([]);
    // ripgrep 14 (the packaged one) starts its messages with 'rg: '.
    expect(walkErrors('rg: ./a/locked: Permission denied (os error 13)\n', '')).toEqual(['a/locked']);
    expect(walkErrors('rg: src/x: Permission denied (os error 13)\n', 'src')).toEqual(['src/x']);
  });

  it('reads nothing it cannot be sure of: the answer is then not used', () => {
    // Another kind of message (bwrap's, a loop), a name printed lossily, a path outside the start,
    // the root itself.
    expect(walkErrors('bwrap: Creating new namespace failed: Operation not permitted\n', '')).toBeUndefined();
    expect(walkErrors('File system loop found: ./a points to an ancestor ./\n', '')).toBeUndefined();
    expect(walkErrors('./caf\uFFFD: Permission denied (os error 13)\n', '')).toBeUndefined();
    expect(walkErrors('other/x: Permission denied (os error 13)\n', 'src')).toBeUndefined();
    expect(walkErrors('srcx/y: Permission denied (os error 13)\n', 'src')).toBeUndefined();
    expect(walkErrors('.: Permission denied (os error 13)\n', '')).toBeUndefined();
    // A name holding a newline splits into a line that is no message.
    expect(walkErrors('./a\nb: Permission denied (os error 13)\n', '')).toBeUndefined();
  });
});
