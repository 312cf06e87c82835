import { closeSync, constants, openSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../../test-support/temp-dir';
import { waitingSandboxes } from '../../test-support/waiting-sandboxes';
import { confinementMode } from '../processes/confinement';
import { ripgrepOnPath } from '../processes/ripgrep-locate';
import { ForegroundGate } from './foreground-gate';
import {
  dropRipgrepPrestart,
  parseWalkOutput,
  prestartGeneration,
  prestartRipgrepWalk,
  walkErrors,
} from './ripgrep-walk';

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

describe('parseWalkOutput', () => {
  const out = (...parts: (string | Buffer)[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  const stats = '\n3 matches\n3 matched lines\n2 files contained matches\n40 files searched\n';

  it("reads each file's name and count of matching lines, and the files searched", () => {
    // A name may hold a newline (and digits after it): only the NUL ends it.
    expect(parseWalkOutput(out('./a.txt\x002\n', './b\n7.txt\x001\n', stats))).toEqual({
      matched: ['a.txt', 'b\n7.txt'],
      lines: [2, 1],
      searched: 40,
      unsearched: [],
    });
    expect(parseWalkOutput(out('src/x.ts\x0012\n', stats))?.matched).toEqual(['src/x.ts']);
    // A start folder whose name begins with U+FEFF: kept, not taken for a byte-order mark.
    expect(parseWalkOutput(out('\uFEFFsrc/\u00e9.ts\x0031\n', stats))).toMatchObject({
      matched: ['\uFEFFsrc/\u00e9.ts'],
      lines: [31],
    });
    expect(parseWalkOutput(out('\n0 files searched\n'))).toEqual({
      matched: [],
      lines: [],
      searched: 0,
      unsearched: [],
    });
  });

  it('reads nothing it cannot be sure of: a name not UTF-8, a count that is none, no statistics', () => {
    expect(parseWalkOutput(out('./caf', Buffer.from([0xe9]), '\x001\n', stats))).toBeUndefined();
    expect(parseWalkOutput(out('./a.txt\x00x\n', stats))).toBeUndefined();
    expect(parseWalkOutput(out('./a.txt\x000\n', stats))).toBeUndefined();
    expect(parseWalkOutput(out('./a.txt\x002'))).toBeUndefined();
    expect(parseWalkOutput(out('./a.txt\x002\n'))).toBeUndefined();
    expect(parseWalkOutput(out('./a.txt\x00\n', stats))).toBeUndefined();
    expect(parseWalkOutput(out('./a.txt\x002 \n', stats))).toBeUndefined();
    // Output that is not UTF-8 anywhere (ripgrep's statistics are ASCII) is not read either.
    expect(parseWalkOutput(out('./a.txt\x002\n', stats, Buffer.from([0xff])))).toBeUndefined();
  });
});

describe.skipIf(!confinementMode().confined || ripgrepOnPath() === undefined)('prestartRipgrepWalk', () => {
  const tempDir = useTempDirs();
  afterEach(() => dropRipgrepPrestart());
  const rootOf = async () => {
    const path = await realpath(await tempDir());
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
    return { root: { fd, path, mode: 'proc-fd' as const }, rules: readOnly(path) };
  };
  const readOnly = (path: string) => ({
    writable: [],
    readable: [path],
    readOnly: [],
    hidden: [],
    hiddenTrees: [],
    readableInHidden: [],
  });
  /** What would have appeared by now had a sandbox been made. */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('makes the sandbox of the walk in a folder, unless dropped since it was asked for', async () => {
    const rg = ripgrepOnPath()!;
    const { root, rules } = await rootOf();
    const asked = prestartGeneration();
    dropRipgrepPrestart(); // the workspace closed meanwhile
    await prestartRipgrepWalk(rg, root, rules, { asOf: asked });
    await settled();
    expect(waitingSandboxes(root.path)).toEqual([]);
    await prestartRipgrepWalk(rg, root, rules, { asOf: prestartGeneration() });
    await vi.waitFor(() => expect(waitingSandboxes(root.path)).toHaveLength(1), { timeout: 5000 });
    closeSync(root.fd);
  });

  it('waits while a call runs, and makes nothing where one is still running when it would', async () => {
    const rg = ripgrepOnPath()!;
    const { root, rules } = await rootOf();
    const gate = new ForegroundGate();
    const leave = gate.enter();
    const made = prestartRipgrepWalk(rg, root, rules, { calls: gate });
    await settled();
    expect(waitingSandboxes(root.path)).toEqual([]);
    leave();
    await made;
    await vi.waitFor(() => expect(waitingSandboxes(root.path)).toHaveLength(1), { timeout: 5000 });
    dropRipgrepPrestart();
    // Busy once the wait is over (a call that came meanwhile): nothing.
    const busy = { busy: true, idle: () => undefined };
    await prestartRipgrepWalk(rg, root, rules, { calls: busy });
    await settled();
    expect(waitingSandboxes(root.path)).toEqual([]);
    closeSync(root.fd);
  });
});
