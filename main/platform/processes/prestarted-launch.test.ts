import { once } from 'node:events';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAlive } from '../../test-support/process-alive';
import { waitingSandboxes } from '../../test-support/waiting-sandboxes';
import { useTempDirs } from '../../test-support/temp-dir';
import { confinementMode } from './confinement';
import type { ConfinementRules } from './launch-types';
import { prestartOutputFileProcess, readOutputFile, startOutputFileProcess } from './output-process';
import type { FileOutputProcess, OutputProcessSpec } from './output-process';
import { MAX_AGE_MS, discardPrestarted } from './prestarted-launch';

const tempDir = useTempDirs();
const mode = confinementMode();
afterEach(() => discardPrestarted());

/** Read-only access to `folder`, and `hidden` (absent or not) never shown. */
const rulesFor = (folder: string, hidden: readonly string[] = []): Omit<ConfinementRules, 'cwd'> => ({
  writable: [],
  readable: [folder],
  readOnly: [],
  hidden,
  hiddenTrees: [],
  readableInHidden: [],
});

const specOf = (
  folder: string,
  file: string,
  args: readonly string[],
  confinement = rulesFor(folder),
  signal = new AbortController().signal,
): OutputProcessSpec => ({ file, args, cwd: folder, environment: { pass: [] }, signal, confinement });

/** Runs a start to its end: its exit code, what it wrote to its output file and to stderr. */
async function ran({ child, output }: { child: FileOutputProcess; output: number }) {
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [code] = (await once(child, 'close')) as [number | null];
  try {
    return { code, output: readOutputFile(output).toString('utf8'), stderr };
  } finally {
    // The caller's descriptor of the output file.
    (await import('node:fs')).closeSync(output);
  }
}

/** Makes a sandbox ahead for `spec` and waits until it is there; answers its bwrap's pid. */
async function madeAhead(spec: OutputProcessSpec): Promise<number> {
  prestartOutputFileProcess(spec);
  return vi.waitFor(
    () => {
      const [pid, ...more] = waitingSandboxes();
      expect(more).toEqual([]);
      expect(pid).toBeDefined();
      return pid!;
    },
    { timeout: 5000 },
  );
}

describe.skipIf(!mode.confined)('a confined start made ahead', () => {
  it('hands the program its arguments exactly as given, and gives back its output and exit', async () => {
    const folder = await tempDir();
    const odd = ['a b', '', '$HOME', '"q"', "'s'", '\\n', '*', '-e', '--', 'ü $(id) `id`', ' lead', 'trail '];
    const waiter = await madeAhead(specOf(folder, '/usr/bin/printf', []));
    const started = startOutputFileProcess(specOf(folder, '/usr/bin/printf', ['<%s>\\n', ...odd]));
    // The very process made ahead runs it: bwrap's pid is the child's.
    expect(started.child.pid).toBe(waiter);
    expect(started.child.confined).toBe(true);
    expect(await ran(started)).toEqual({ code: 0, output: odd.map((arg) => `<${arg}>\n`).join(''), stderr: '' });
    expect(waitingSandboxes()).toEqual([]);

    // Its input is /dev/null, as a fresh start's (not the pipe the program came through).
    const input = await madeAhead(specOf(folder, '/usr/bin/readlink', []));
    const reading = startOutputFileProcess(specOf(folder, '/usr/bin/readlink', ['/proc/self/fd/0']));
    expect(reading.child.pid).toBe(input);
    expect((await ran(reading)).output).toBe('/dev/null\n');

    // Its exit code and messages, as a fresh start's.
    await madeAhead(specOf(folder, '/bin/ls', []));
    const failing = await ran(startOutputFileProcess(specOf(folder, '/bin/ls', ['no-such-name'])));
    expect(failing.code).toBe(2);
    expect(failing.stderr).toContain('no-such-name');
  });

  it('is not used by a start whose sandbox would differ now, nor for an argument holding a newline', async () => {
    const folder = await tempDir();
    const secret = join(folder, 'secret.txt');
    // Made while the hidden name does not exist: nothing to hide then.
    const waiter = await madeAhead(specOf(folder, '/bin/cat', [], rulesFor(folder, [secret])));
    await writeFile(secret, 'the secret\n');
    const now = startOutputFileProcess(specOf(folder, '/bin/cat', ['secret.txt'], rulesFor(folder, [secret])));
    expect(now.child.pid).not.toBe(waiter);
    // Hidden now, as the rules ask (the sandbox made before it existed would have shown it).
    const read = await ran(now);
    expect(read.output + read.stderr).not.toContain('the secret');
    expect(read.code).not.toBe(0);

    // A hidden name the host replaced since (an editor's save: a new file renamed over it): the
    // sandbox made before it no longer covers it there, so it is not used.
    const memory = join(folder, 'MEMORY.md');
    await writeFile(memory, 'old notes\n');
    discardPrestarted();
    const before = await madeAhead(specOf(folder, '/bin/cat', [], rulesFor(folder, [memory])));
    await writeFile(join(folder, 'saving.tmp'), 'the new notes\n');
    await rename(join(folder, 'saving.tmp'), memory);
    const saved = startOutputFileProcess(specOf(folder, '/bin/cat', ['MEMORY.md'], rulesFor(folder, [memory])));
    expect(saved.child.pid).not.toBe(before);
    const shown = await ran(saved);
    expect(shown.output + shown.stderr).not.toContain('notes');

    // Another folder's sandbox, another environment... a newline: the one waiting stays unused.
    const other = await tempDir();
    discardPrestarted();
    const again = await madeAhead(specOf(folder, '/usr/bin/printf', []));
    const elsewhere = startOutputFileProcess(specOf(other, '/usr/bin/printf', ['elsewhere']));
    expect(elsewhere.child.pid).not.toBe(again);
    expect((await ran(elsewhere)).output).toBe('elsewhere');
    const split = startOutputFileProcess(specOf(folder, '/usr/bin/printf', ['%s|', 'two\nlines']));
    expect(split.child.pid).not.toBe(again);
    expect((await ran(split)).output).toBe('two\nlines|');
    // A NUL: a fresh start refuses it (no program takes one); the shell would have dropped it.
    expect(() => startOutputFileProcess(specOf(folder, '/usr/bin/printf', ['a\0b']))).toThrow();
    expect(waitingSandboxes()).toEqual([again]);
  });

  it('ends its program when the signal aborts, as a fresh start does', async () => {
    const folder = await tempDir();
    await madeAhead(specOf(folder, '/bin/sleep', []));
    const stop = new AbortController();
    const started = startOutputFileProcess(specOf(folder, '/bin/sleep', ['30'], rulesFor(folder), stop.signal));
    started.child.stderr.resume(); // read, as every caller does (ripgrepExit): its end closes it
    const failed = once(started.child, 'error');
    stop.abort();
    const [error] = (await failed) as [Error];
    expect(error.name).toBe('AbortError');
    await once(started.child, 'close');
    expect(isAlive(started.child.pid!)).toBe(false);
  });

  it('keeps nothing alive: the waiting processes hold no handle of the event loop and go when dropped', async () => {
    const folder = await tempDir();
    // The handles a child and its pipes would hold the loop with, as Node counts them.
    const held = () => process.getActiveResourcesInfo().filter((kind) => kind === 'ProcessWrap' || kind === 'PipeWrap');
    const before = held();
    const waiter = await madeAhead(specOf(folder, '/usr/bin/printf', []));
    expect(held()).toEqual(before);
    discardPrestarted();
    await vi.waitFor(() => expect(isAlive(waiter)).toBe(false), { timeout: 5000 });
  });

  it('serves only a few seconds after it was made, even where its timer has not run yet', async () => {
    const folder = await tempDir();
    const waiter = await madeAhead(specOf(folder, '/usr/bin/printf', []));
    // The event loop held up past its age: its timer cannot have run, the start must still refuse it.
    const until = performance.now() + MAX_AGE_MS + 200;
    while (performance.now() < until);
    const late = startOutputFileProcess(specOf(folder, '/usr/bin/printf', ['late']));
    expect(late.child.pid).not.toBe(waiter);
    expect((await ran(late)).output).toBe('late');
    await vi.waitFor(() => expect(isAlive(waiter)).toBe(false), { timeout: 5000 });
  }, 20_000);
});
