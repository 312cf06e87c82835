import { readdirSync, readlinkSync } from 'node:fs';
import { chmod, chown, link, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnchoredBatch } from '../platform/disk/anchored-batch';
import { confinementMode, resetConfinementProbe } from '../platform/processes/confinement';
import type * as outputProcess from '../platform/processes/output-process';
import { ripgrepOnPath } from '../platform/processes/ripgrep-locate';
import { writeFiles } from '../test-support/search-trees';
import { useTempDirs } from '../test-support/temp-dir';
import type { ToolKit } from '../test-support/tool-kit';
import { useToolKits } from '../test-support/use-tool-kits';
import { searchInCodeTool } from './search-in-code';
import type { SearchInCodeOutput } from './search-in-code';

/** Every ripgrep search_in_code starts: confined or not, its arguments and what it may write. */
const started = vi.hoisted(
  () => [] as { confined: boolean; args: readonly string[]; writable: readonly string[] | undefined }[],
);
vi.mock('../platform/processes/output-process', async (importOriginal) => {
  const original = await importOriginal<typeof outputProcess>();
  return {
    ...original,
    startOutputProcess: (spec: outputProcess.OutputProcessSpec) => {
      const child = original.startOutputProcess(spec);
      started.push({ confined: child.confined, args: spec.args, writable: spec.confinement?.writable });
      return child;
    },
    startOutputFileProcess: (spec: outputProcess.OutputProcessSpec) => {
      const run = original.startOutputFileProcess(spec);
      started.push({ confined: run.child.confined, args: spec.args, writable: spec.confinement?.writable });
      return run;
    },
  };
});

const mode = confinementMode();
const tempDir = useTempDirs();
const toolKit = useToolKits();
/** The kit search() runs in (useToolKits disposes it after the test). */
let kit: ToolKit | undefined;
afterEach(() => {
  kit = undefined;
  started.length = 0;
  delete process.env['FAMILIAR_UNCONFINED'];
  resetConfinementProbe();
});

const memoryOff = (path: string) =>
  path === 'MEMORY.md' || path === 'USER.md' || path === 'memory' || path.startsWith('memory/');

/**
 * A workspace where "needle" is in one plain file and in every kind of file a search must never
 * show: links out (a file, a folder, a system file ripgrep's confinement does show), a hard link to
 * an outside file, deny-listed secrets, the memory files while memory is off (the persona folder's,
 * and the project's own root ones the persona overlay shadows), git-ignored files and node_modules.
 */
async function leakyWorkspace(): Promise<{ kit: ToolKit; outside: string }> {
  const made = await toolKit({ searchEngine: 'auto', isConcealed: memoryOff });
  const outside = await tempDir();
  await writeFiles(outside, { 'secret.txt': 'needle linked-out\n', 'hard.txt': 'needle hard-linked\n' });
  const ws = made.workspace;
  await writeFiles(ws, {
    'src/a.ts': 'const needle = 1;\n',
    'server.pem': 'needle pem-secret\n',
    'deep/id_rsa': 'needle key-secret\n',
    '.env': 'needle env-secret\n',
    'MEMORY.md': 'needle shadowed-memory\n',
    'memory/old.md': 'needle shadowed-note\n',
    '.gitignore': 'dist/\n',
    'dist/out.js': 'needle ignored-build\n',
    'node_modules/dep/index.js': 'needle dependency\n',
  });
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  await symlink(outside, join(ws, 'linked-folder'));
  await symlink('/etc/passwd', join(ws, 'passwd.txt'));
  await link(join(outside, 'hard.txt'), join(ws, 'hard.txt'));
  await writeFiles(made.personaDir, {
    'SOUL.md': 'needle soul\n',
    'MEMORY.md': 'needle memory-off\n',
    'USER.md': 'needle user-off\n',
    'memory/2026-01-01.md': 'needle note-off\n',
  });
  return { kit: made, outside };
}

const leaks = ['linked-out', 'hard-linked', 'secret', 'shadowed', '-off', 'root:'];

async function search(args: {
  query: string;
  is_regex?: boolean;
  path?: string;
  file_pattern?: string;
  include_ignored?: boolean;
  max_results?: number;
}): Promise<SearchInCodeOutput> {
  const result = await kit!.call(searchInCodeTool, args);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe.skipIf(ripgrepOnPath() === undefined)('search_in_code with ripgrep walking itself', () => {
  it.skipIf(!mode.confined)(
    `is used where ripgrep runs confined, and shows nothing a walk would not${mode.confined ? '' : ` (unconfined here: ${mode.reason})`}`,
    async () => {
      ({ kit } = await leakyWorkspace());
      const found = await search({ query: 'needle' });
      expect(found.walk).toBe('ripgrep');
      expect(found.engine).toBe('ripgrep');
      // One ripgrep, confined, walking the workspace: no file list on its command line.
      expect(started).toHaveLength(1);
      expect(started[0]!.confined).toBe(true);
      expect(started[0]!.args.at(-1)).toBe('.');
      expect(started[0]!.args).not.toContain('src/a.ts');
      expect(found.results.map((hit) => `${hit.file}:${hit.text}`)).toEqual([
        'SOUL.md:needle soul',
        'src/a.ts:const needle = 1;',
      ]);
      expect(found.total_matches).toBe(2);
      expect(found.files_with_matches).toBe(2);
      const text = JSON.stringify(found);
      for (const leak of leaks) expect(text).not.toContain(leak);

      // The same for a system file a link names (ripgrep's confinement shows /etc), and with ignored files.
      expect((await search({ query: 'root:' })).results).toEqual([]);
      const withIgnored = await search({ query: 'needle', include_ignored: true });
      expect(withIgnored.walk).toBe('ripgrep');
      expect(withIgnored.results.map((hit) => hit.file)).toEqual([
        'SOUL.md',
        'dist/out.js',
        'node_modules/dep/index.js',
        'src/a.ts',
      ]);
      for (const leak of leaks) expect(JSON.stringify(withIgnored)).not.toContain(leak);
    },
  );

  it('keeps the file list where ripgrep cannot be confined, with the same answer', async () => {
    process.env['FAMILIAR_UNCONFINED'] = '1';
    resetConfinementProbe();
    ({ kit } = await leakyWorkspace());
    const found = await search({ query: 'needle' });
    expect(found.walk).toBeUndefined();
    expect(found.engine).toBe('ripgrep');
    expect(started.length).toBeGreaterThan(0);
    for (const run of started) expect(run.confined).toBe(false);
    expect(started.some((run) => run.args.includes('src/a.ts'))).toBe(true);
    expect(found.results.map((hit) => `${hit.file}:${hit.text}`)).toEqual([
      'SOUL.md:needle soul',
      'src/a.ts:const needle = 1;',
    ]);
    for (const leak of leaks) expect(JSON.stringify(found)).not.toContain(leak);
  });

  it.skipIf(!mode.confined)('searches a subfolder by walking it, and keeps the walk for a file_pattern', async () => {
    ({ kit } = await leakyWorkspace());
    await writeFiles(kit.workspace, { 'src/deeper/b.ts': 'needle b\n', 'other/c.ts': 'needle c\n' });
    const sub = await search({ query: 'needle', path: 'src' });
    expect(sub.walk).toBe('ripgrep');
    expect(started[0]!.args.at(-1)).toBe('src');
    expect(sub.results.map((hit) => hit.file)).toEqual(['src/a.ts', 'src/deeper/b.ts']);
    const patterned = await search({ query: 'needle', file_pattern: '*.ts' });
    expect(patterned.walk).toBeUndefined();
    expect(patterned.results.map((hit) => hit.file)).toEqual(['other/c.ts', 'src/a.ts', 'src/deeper/b.ts']);
  });

  it.skipIf(!mode.confined)(
    'leaves no file of the workspace open, whoever reads the candidates its walk opened',
    async () => {
      ({ kit } = await leakyWorkspace());
      const workspace = kit.workspace;
      // Descriptors of this process on files of the workspace (the walk opens a literal's candidates).
      const openHere = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${workspace}/`);
          } catch {
            return false; // closed meanwhile (readdir's own descriptor)
          }
        });
      const held = openHere();
      // Which files were handed to a batch with the walk's descriptor.
      const add = vi.spyOn(AnchoredBatch.prototype, 'add');
      const handedOpen = () =>
        add.mock.calls.filter(([, fd]) => fd !== undefined && fd >= 0).map(([entry]) => entry.name);
      try {
        // A literal over a few small files: read in this thread, through the walk's descriptors.
        const small = await search({ query: 'needle' });
        expect(small.results.map((hit) => hit.file)).toEqual(['SOUL.md', 'src/a.ts']);
        expect(handedOpen()).toEqual(['a.ts']);
        expect(openHere()).toEqual(held);
        // Over 2 MB of candidates: read by the file workers, so the walk's descriptors are closed first.
        add.mockClear();
        const big = `${'x'.repeat(99)}\n`.repeat(12_000);
        await writeFiles(kit.workspace, { 'big/one.txt': `needle one\n${big}`, 'big/two.txt': `needle two\n${big}` });
        const large = await search({ query: 'needle' });
        expect(large.results.map((hit) => hit.file)).toEqual(['SOUL.md', 'big/one.txt', 'big/two.txt', 'src/a.ts']);
        expect(add.mock.calls.length).toBeGreaterThan(0);
        expect(handedOpen()).toEqual([]);
        expect(openHere()).toEqual(held);
      } finally {
        add.mockRestore();
      }
    },
  );

  it.skipIf(!mode.confined)(
    'walks and reads itself what ripgrep could not (a folder and a file refused to it), with the answer a file list gives',
    async () => {
      ({ kit } = await leakyWorkspace());
      await writeFiles(kit.workspace, {
        'locked/inner/b.ts': 'needle in a locked folder\n',
        'locked/c.txt': 'nothing\n',
        'pub/refused.txt': 'needle in a refused file\n',
        'pub/open.txt': 'needle in the open\n',
      });
      // Every file readable: what ripgrep's walk counts as searched.
      const before = await search({ query: 'needle' });
      expect(before.walk).toBe('ripgrep');
      started.length = 0;
      // Run as root (as in a container), this process reads what another user owns and ripgrep, in
      // its user namespace, does not. Otherwise neither does: the walk then finds nothing there.
      const root = process.getuid?.() === 0;
      if (root) {
        await chown(join(kit.workspace, 'locked'), 65534, 65534);
        await chown(join(kit.workspace, 'pub', 'refused.txt'), 65534, 65534);
      }
      await chmod(join(kit.workspace, 'locked'), root ? 0o700 : 0);
      await chmod(join(kit.workspace, 'pub', 'refused.txt'), root ? 0o600 : 0);
      try {
        const found = await search({ query: 'needle' });
        expect(found.walk).toBe('ripgrep');
        expect(started).toHaveLength(1);
        expect(found.results.map((hit) => hit.file)).toEqual(
          root
            ? ['SOUL.md', 'locked/inner/b.ts', 'pub/open.txt', 'pub/refused.txt', 'src/a.ts']
            : ['SOUL.md', 'pub/open.txt', 'src/a.ts'],
        );
        for (const leak of leaks) expect(JSON.stringify(found)).not.toContain(leak);
        // What ripgrep could not read counts as searched once the sandbox's walk finds it (the
        // refused file, and as root the locked folder's two files).
        expect(found.searched_files).toBe(before.searched_files - (root ? 0 : 2));

        // The sandbox's own walk and a file list: the same answer (the count of files searched
        // aside: ripgrep's counts the deny-listed files its walk read too).
        process.env['FAMILIAR_UNCONFINED'] = '1';
        resetConfinementProbe();
        const listed = await search({ query: 'needle' });
        expect(listed.walk).toBeUndefined();
        const same = ({ walk: _walk, engine: _engine, searched_files: _searched, ...rest }: SearchInCodeOutput) => rest;
        expect(same(found)).toEqual(same(listed));
      } finally {
        await chmod(join(kit.workspace, 'locked'), 0o755);
        await chmod(join(kit.workspace, 'pub', 'refused.txt'), 0o644);
      }
    },
  );

  it.skipIf(!mode.confined)(
    "takes the walk's counts of many candidates, still without what a walk would not show, binary files judged as the JS engine does",
    async () => {
      const made = await leakyWorkspace();
      kit = made.kit;
      const many: Record<string, string> = {};
      // More than 256 candidates and more than 4 MB of them: too many for the JS engine to read.
      const padding = `${'padding '.repeat(2000)}\n`;
      for (let i = 0; i < 300; i += 1)
        many[`many/f${String(i).padStart(3, '0')}.txt`] = `needle\nneedle again\n${padding}`;
      // Past the lines described: only counts tell of these. A NUL in the first 8 KB makes a binary
      // file (skipped); one further on does not, and its lines count as text, the NUL's line too.
      many['many/z-binary.txt'] = 'needle\0\nneedle\n';
      many['many/z-late-nul.txt'] = `${'a'.repeat(9000)}\nneedle \0 needle\nneedle\n`;
      await writeFiles(kit.workspace, many);
      await writeFile(join(kit.workspace, 'many', 'z-utf16.txt'), Buffer.from('\uFEFFneedle\nneedle\n', 'utf16le'));
      await link(join(made.outside, 'hard.txt'), join(kit.workspace, 'many', 'hard2.txt'));
      // Older than the slack a count allows (search-ripgrep-engine.ts CTIME_SLACK_MS): the walk's
      // counts stand, where younger files would all be counted again by the JS engine.
      await sleep(2100);
      const found = await search({ query: 'needle', max_results: 10 });
      expect(found.walk).toBe('ripgrep');
      // One ripgrep: its walk counted the lines, no second one counts them on a list.
      expect(started).toHaveLength(1);
      expect(found.total_matches).toBe(2 + 600 + 2 + 2);
      expect(found.files_with_matches).toBe(2 + 300 + 2);
      expect(found.skipped_binary).toBe(1);
      expect(found.results.slice(0, 3).map((hit) => hit.file)).toEqual(['SOUL.md', 'many/f000.txt', 'many/f000.txt']);
      for (const leak of leaks) expect(JSON.stringify(found)).not.toContain(leak);
      // A regex's candidates (not opened by the walk) go to the engine as the walk confirms them: the same answer.
      const regex = await search({ query: 'ne+dle', is_regex: true, max_results: 10 });
      expect({ ...regex, query: 'needle' }).toEqual(found);

      // The sandbox's own walk and ripgrep counting its list: the same answer.
      process.env['FAMILIAR_UNCONFINED'] = '1';
      resetConfinementProbe();
      const listed = await search({ query: 'needle', max_results: 10 });
      expect(listed.walk).toBeUndefined();
      const same = ({ walk: _walk, engine: _engine, searched_files: _searched, ...rest }: SearchInCodeOutput) => rest;
      expect(same(found)).toEqual(same(listed));
    },
  );
});

describe.skipIf(ripgrepOnPath() === undefined)('search_in_code’s ripgrep counting a file list', () => {
  it.each([
    ['a file_pattern', false],
    ['no confinement', true],
  ])(
    'counts nothing of a hard link to an outside file it was handed (%s), described or not',
    async (_case, unconfined) => {
      if (unconfined) {
        process.env['FAMILIAR_UNCONFINED'] = '1';
        resetConfinementProbe();
      }
      kit = await toolKit({ searchEngine: 'auto' });
      const outside = await tempDir();
      await writeFiles(outside, { 'secret.txt': 'needle from outside\n'.repeat(50) });
      await writeFiles(kit.workspace, { 'a.txt': 'needle a\n', 'b.txt': 'needle b\n', 'c.txt': 'needle c\n' });
      // Last in walk order: past the one line described, so only a count could tell of it.
      await link(join(outside, 'secret.txt'), join(kit.workspace, 'zz.txt'));
      const found = await search({ query: 'needle', ...(unconfined ? {} : { file_pattern: '*.txt' }), max_results: 1 });
      expect(found.walk).toBeUndefined();
      expect(found.engine).toBe('ripgrep');
      expect(started.some((run) => run.args.includes('zz.txt'))).toBe(true); // ripgrep was handed it
      expect(found.results.map((hit) => hit.file)).toEqual(['a.txt']);
      expect(found.total_matches).toBe(3);
      expect(found.files_with_matches).toBe(3);
    },
  );
});

describe.skipIf(ripgrepOnPath() === undefined)('search_in_code’s ripgrep', () => {
  it(`runs confined by the rules for ripgrep: nothing writable${mode.confined ? '' : ` (unconfined here: ${mode.reason})`}`, async () => {
    kit = await toolKit({ searchEngine: 'auto' });
    await writeFiles(kit.workspace, { 'src/a.ts': 'const needle = 1;\n' });
    const result = await kit.call(searchInCodeTool, { query: 'needle' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.engine).toBe('ripgrep');
    expect(result.value.results.map((hit) => hit.file)).toEqual(['src/a.ts']);
    expect(started.length).toBeGreaterThan(0);
    for (const run of started)
      expect({ confined: run.confined, writable: run.writable }).toEqual({ confined: mode.confined, writable: [] });
  });
});
