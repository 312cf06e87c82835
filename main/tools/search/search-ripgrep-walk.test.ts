import { rmSync } from 'node:fs';
import { link, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinementMode } from '../../platform/processes/confinement';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { ripgrepPatternArgs } from '../../platform/search-engines/ripgrep-pattern';
import type { ResolvedPath } from '../../platform/disk/workspace-sandbox';
import { writeFiles } from '../../test-support/search-trees';
import { useToolKits } from '../../test-support/use-tool-kits';
import type { ToolEnvironment } from '../kit/tool-environment';
import { compileQuery } from './search-query';
import { ripgrepWalkedFiles } from './search-ripgrep-walk';
import type { RipgrepWalkedOptions } from './search-ripgrep-walk';

const toolKit = useToolKits();
const rg = ripgrepOnPath();

/** ripgrepWalkedFiles looking for "needle" from `start` (with the real ripgrep, every file accepted, unless told). */
const needleWalk = (
  env: ToolEnvironment,
  start: ResolvedPath,
  options: RipgrepWalkedOptions = {},
  { binary = rg!, accept = (_relPath: string): boolean => true } = {},
) => ripgrepWalkedFiles(env, binary, ['-e', 'needle'], start, false, accept, new AbortController().signal, options);

/** What ripgrepWalkedFiles answered, where it did not fail. */
async function walkedOf(pending: ReturnType<typeof ripgrepWalkedFiles>) {
  const result = await pending;
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe.skipIf(rg === undefined || !confinementMode().confined)('ripgrepWalkedFiles', () => {
  it("adds up the candidates' sizes with the persona files' (a literal over a few small files stays in this thread)", async () => {
    const kit = await toolKit({});
    await mkdir(join(kit.workspace, 'src'), { recursive: true });
    await writeFile(join(kit.workspace, 'src', 'a.ts'), 'const needle = 1;\n'); // 18 bytes
    await writeFile(join(kit.workspace, 'src', 'b.ts'), 'nothing here\n');
    await writeFile(join(kit.personaDir, 'SOUL.md'), 'a soul of 22 bytes...\n');
    await writeFile(join(kit.personaDir, 'USER.md'), '9 bytes.\n');
    const spec = compileQuery('needle', { isRegex: false, caseSensitive: false, contextLines: 0, maxLineChars: 200 });
    if (!spec.ok) throw new Error(spec.error.message);
    const start = await kit.env.sandbox.resolve('.', 'read');
    if (!start.ok) throw new Error(start.error.message);
    const walked = await walkedOf(
      ripgrepWalkedFiles(
        kit.env,
        rg!,
        ripgrepPatternArgs(spec.value)!,
        start.value,
        false,
        () => true,
        new AbortController().signal,
      ),
    );
    expect(walked?.files.map((file) => file.relPath).sort()).toEqual(['SOUL.md', 'USER.md', 'src/a.ts']);
    expect(walked?.bytes).toBe(18 + 22 + 9);
  });

  it("leaves many candidates' sizes and links to the count checks (sizesUpTo), a few looked up", async () => {
    const kit = await toolKit({});
    const outside = join(kit.home, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'secret.txt'), 'needle outside\n');
    await writeFile(join(kit.workspace, 'a.txt'), 'needle\n');
    await link(join(outside, 'secret.txt'), join(kit.workspace, 'hard.txt'));
    const start = await kit.env.sandbox.resolve('.', 'read');
    if (!start.ok) throw new Error(start.error.message);
    const walk = (sizesUpTo?: number) =>
      walkedOf(needleWalk(kit.env, start.value, sizesUpTo === undefined ? {} : { sizesUpTo }));
    // Looked up: the second hard link is dropped here, the sizes are known.
    const looked = await walk();
    expect(looked?.files.map((file) => file.relPath)).toEqual(['a.txt']);
    expect(looked?.bytes).toBe(7);
    // Two named, more than 1: neither is looked up; the second link goes on to the check.
    const left = await walk(1);
    expect(left?.files.map((file) => file.relPath)).toEqual(['a.txt', 'hard.txt']);
    expect(left?.sizes).toEqual([0, 0]);
    expect(left?.bytes).toBe(Infinity);
  });

  it('says how many files with a match ripgrep named while it still walks', async () => {
    const kit = await toolKit({});
    await writeFile(join(kit.workspace, 'a.txt'), 'needle\n');
    await writeFile(join(kit.workspace, 'b.txt'), 'needle\n');
    // A ripgrep that names one file, walks on for a second, then names the other. It lives in the
    // workspace: ripgrep's confinement shows the workspace, not this process's /tmp.
    const fake = join(kit.workspace, 'fake-rg');
    await writeFile(
      fake,
      "#!/bin/sh\nprintf './a.txt\\0001\\n'\nsleep 1\nprintf './b.txt\\0001\\n\\n2 files searched\\n'\n",
      { mode: 0o755 },
    );
    const start = await kit.env.sandbox.resolve('.', 'read');
    if (!start.ok) throw new Error(start.error.message);
    const told: number[] = [];
    const walked = await walkedOf(
      needleWalk(
        kit.env,
        start.value,
        { onMatched: (count) => told.push(count) },
        { binary: fake, accept: (relPath) => relPath !== 'fake-rg' },
      ),
    );
    expect(walked?.files.map((file) => file.relPath)).toEqual(['a.txt', 'b.txt']);
    expect(walked?.lines).toEqual([1, 1]);
    expect(told[0]).toBe(1);
  });

  it('drops the answer when a path ripgrep said it could not read is not there for the walk (a name with a newline)', async () => {
    const kit = await toolKit({});
    await mkdir(join(kit.workspace, 'locked'));
    await writeFile(join(kit.workspace, 'locked', 'a.txt'), 'needle\n');
    // A ripgrep that searched nothing and names one path it could not read. It lives in the
    // workspace: ripgrep's confinement shows the workspace, not this process's /tmp.
    const fake = join(kit.workspace, 'fake-rg');
    /** ripgrepWalkedFiles with a ripgrep that says `message` on stderr (nothing when empty) and exits 2. */
    const run = async (message: string) => {
      const say = message === '' ? '' : `echo '${message}' >&2\n`;
      await writeFile(fake, `#!/bin/sh\n${say}printf '\\n0 files searched\\n'\nexit 2\n`, { mode: 0o755 });
      const start = await kit.env.sandbox.resolve('.', 'read');
      if (!start.ok) throw new Error(start.error.message);
      // A sink is not asked for where ripgrep left a folder unread.
      return walkedOf(needleWalk(kit.env, start.value, { streamTo: () => () => sunk.push('sunk') }, { binary: fake }));
    };
    const sunk: string[] = [];
    const refused = (path: string) => `rg: ./${path}: Permission denied (os error 13)`;
    // There: walked and read by the sandbox instead.
    const found = await run(refused('locked'));
    expect(found?.files.map((file) => file.relPath)).toEqual(['locked/a.txt']);
    expect(found?.searched).toBe(1);
    // Not there (what a folder named "locked\nrg: ./ghost..." would print): not trusted.
    expect(await run(refused('ghost'))).toBeUndefined();
    // An error that names nothing: what ripgrep missed is not known.
    expect(await run('')).toBeUndefined();
    expect(sunk).toEqual([]);
  });

  it('hands each candidate to a sink as it is confirmed, in walk order with its count, where none is opened', async () => {
    const kit = await toolKit({});
    await writeFiles(kit.workspace, {
      'b/one.txt': 'needle\nneedle\n',
      'a/two.txt': 'needle\n',
      'a/no.txt': 'nothing\n',
      '.hidden/three.txt': 'needle\n',
    });
    await writeFile(join(kit.personaDir, 'SOUL.md'), 'the soul\n');
    const start = await kit.env.sandbox.resolve('.', 'read');
    if (!start.ok) throw new Error(start.error.message);
    const walk = async (openCandidates: boolean) => {
      const sunk: string[] = [];
      const named: number[] = [];
      const walked = await walkedOf(
        needleWalk(kit.env, start.value, {
          openCandidates,
          streamTo: (count, startedAt) => {
            named.push(count);
            expect(startedAt).toBeLessThanOrEqual(Date.now());
            return (entry, lines, size) => sunk.push(`${entry.relPath}:${lines}:${size}`);
          },
        }),
      );
      return { walked, sunk, named };
    };
    const streamed = await walk(false);
    expect(streamed.named).toEqual([2]);
    // The persona overlay's file too, uncounted (-1); sizes unknown (0) past sizesUpTo only.
    expect(streamed.sunk).toEqual(['SOUL.md:-1:9', 'a/two.txt:1:7', 'b/one.txt:2:14']);
    expect(streamed.walked?.files.map((file) => file.relPath)).toEqual(['SOUL.md', 'a/two.txt', 'b/one.txt']);
    expect([...streamed.walked!.opened]).toEqual([-1, -1, -1]);
    // A literal's few candidates are opened, to be read in this thread: no sink is asked for.
    const opened = await walk(true);
    expect([opened.named, opened.sunk]).toEqual([[], []]);
    expect([...opened.walked!.opened].filter((fd) => fd >= 0)).toHaveLength(2);
    opened.walked!.closeOpened();
  });

  it('fails with the walk once candidates went to a sink, where it would walk again without one', async () => {
    const kit = await toolKit({});
    await writeFiles(kit.workspace, { 'src/a.txt': 'needle\n' });
    const start = await kit.env.sandbox.resolve('src', 'read');
    if (!start.ok) throw new Error(start.error.message);
    // The folder goes once ripgrep is done, before the confirming walk opens it.
    const walk = (sink: boolean) =>
      needleWalk(kit.env, start.value, {
        onNamed: () => rmSync(join(kit.workspace, 'src'), { recursive: true }),
        ...(sink ? { streamTo: () => () => undefined } : {}),
      });
    const streamed = await walk(true);
    expect(streamed.ok).toBe(false);
    await writeFiles(kit.workspace, { 'src/a.txt': 'needle\n' });
    expect(await walk(false)).toEqual({ ok: true, value: undefined });
  });
});
