import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import { assistantTools, fileTools, memoryTools } from './index';
import { appendTarget, memoryAppendTool, memoryEntry } from './memory-append';
import { memorySearchTool } from './memory-search';
import { createToolKit } from '../test-support/tool-kit';
import type { ToolKit } from '../test-support/tool-kit';

const tempDir = useTempDirs();
let kit: ToolKit;
afterEach(() => kit.dispose());

const day = (offsetDays: number) => {
  const date = new Date(Date.now() - offsetDays * 86_400_000);
  return appendTarget('today', date);
};

describe('memory_search', () => {
  it('ranks relevant passages first and a recent dated note above an old one with the same words', async () => {
    kit = await createToolKit(tempDir);
    const dir = kit.personaDir;
    await mkdir(join(dir, 'memory'), { recursive: true });
    await writeFile(join(dir, 'MEMORY.md'), '# Memory\n\nThe garden project uses tomatoes and basil.\n');
    await writeFile(join(dir, 'USER.md'), '# User\n\nAda prefers green tea in the morning.\n');
    await writeFile(join(dir, day(120)), 'Call the plumber about the kitchen sink.\n');
    await writeFile(join(dir, day(2)), 'Call the plumber about the kitchen sink.\n');
    await writeFile(join(dir, day(40)), 'Unrelated: bought a bicycle.\n');

    const plumber = await kit.call(memorySearchTool, { query: 'plumber kitchen' });
    if (!plumber.ok) throw new Error(plumber.error.message);
    expect(plumber.value.results.map((hit) => hit.file)).toEqual([day(2), day(120)]);
    const [recent, old] = plumber.value.results;
    // 118 days apart with a 30-day half-life: about 2^-3.9 of the weight.
    expect((old?.score ?? 0) / (recent?.score ?? 1)).toBeCloseTo(0.5 ** (118 / 30), 1);
    expect(recent).toMatchObject({ start_line: 1, end_line: 1, snippet: 'Call the plumber about the kitchen sink.' });

    const tea = await kit.call(memorySearchTool, { query: 'tea', max_results: 1 });
    expect(tea).toMatchObject({ ok: true, value: { results: [{ file: 'USER.md', heading: 'User' }] } });
    const none = await kit.call(memorySearchTool, { query: 'submarine' });
    expect(none).toMatchObject({
      ok: true,
      value: { results: [], notice: expect.stringContaining('Nothing') as string },
    });
  });

  it('does not let a symlink in memory/ pull an outside file into the results', async () => {
    kit = await createToolKit(tempDir);
    await mkdir(join(kit.personaDir, 'memory'), { recursive: true });
    const outside = join(kit.home, '..', 'secret.md');
    await writeFile(outside, 'The vault code is zebra.\n');
    const { symlink } = await import('node:fs/promises');
    await symlink(outside, join(kit.personaDir, 'memory', '2026-01-01.md'));
    expect(await kit.call(memorySearchTool, { query: 'vault zebra' })).toMatchObject({
      ok: true,
      value: { results: [] },
    });
  });

  it('refuses when the environment conceals memory', async () => {
    kit = await createToolKit(tempDir, { isConcealed: () => true });
    expect(await kit.call(memorySearchTool, { query: 'tea' })).toMatchObject({
      ok: false,
      error: { code: 'permission_denied', details: { reason: 'memory_off' } },
    });
  });
});

describe('memory_append', () => {
  it('adds a dated entry to MEMORY.md and leaves every byte already there as it was', async () => {
    kit = await createToolKit(tempDir);
    const file = join(kit.personaDir, 'MEMORY.md');
    // No final newline, CRLF line endings and a BOM: an append must not normalize any of it.
    const original = '\uFEFF# Memory\r\n\r\nProject Zeta ships Friday.';
    await writeFile(file, original);
    const result = await kit.call(memoryAppendTool, { text: 'Ada moved to Lisbon.' });
    if (!result.ok) throw new Error(result.error.message);
    const after = await readFile(file, 'utf8');
    expect(after.startsWith(original)).toBe(true);
    expect(after.slice(original.length)).toMatch(/^\n\n- \[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\] Ada moved to Lisbon\.\n$/);
    expect(result.value).toMatchObject({ path: 'MEMORY.md', created: false });
    expect(result.value.entry).toMatch(/Ada moved to Lisbon\.$/);

    // A second entry joins the list without a blank line; multi-line text stays inside the item.
    await kit.call(memoryAppendTool, { text: 'Likes:\n- tea\n- maps', file: 'MEMORY.md' });
    const again = await readFile(file, 'utf8');
    expect(again.startsWith(after)).toBe(true);
    expect(again.slice(after.length)).toMatch(/^- \[[^\]]+\] Likes:\n {2}- tea\n {2}- maps\n$/);
    // No backup copies: history keeps MEMORY.md's versions.
    expect(await readdir(join(kit.home, 'backups')).catch(() => [])).toEqual([]);
  });

  it("creates today's note (and memory/) with a heading, then appends to it", async () => {
    kit = await createToolKit(tempDir);
    const before = appendTarget('today', new Date());
    const first = await kit.call(memoryAppendTool, { text: 'Dentist moved to Thursday.', file: 'today' });
    if (!first.ok) throw new Error(first.error.message);
    // Around midnight the day may turn between the two clocks; accept either date.
    expect([before, appendTarget('today', new Date())]).toContain(first.value.path);
    expect(first.value.created).toBe(true);
    const date = first.value.path.slice('memory/'.length, -'.md'.length);
    await kit.call(memoryAppendTool, { text: 'Bought basil seeds.', file: 'today' });
    const text = await readFile(join(kit.personaDir, first.value.path), 'utf8');
    expect(text).toMatch(
      new RegExp(
        `^# ${date}\\n\\n- \\[\\d{2}:\\d{2}\\] Dentist moved to Thursday\\.\\n- \\[\\d{2}:\\d{2}\\] Bought basil seeds\\.\\n$`,
      ),
    );
  });

  it('does not refuse an append when the file changed since the model read it, and never loses that change', async () => {
    kit = await createToolKit(tempDir);
    const file = join(kit.personaDir, 'MEMORY.md');
    await writeFile(file, 'Old.\n');
    const { readFileTool } = await import('./read-file');
    await kit.call(readFileTool, { path: 'MEMORY.md' });
    await writeFile(file, 'Old.\nThe user added this.\n');
    const future = new Date(Date.now() + 5000);
    await utimes(file, future, future);
    expect(await kit.call(memoryAppendTool, { text: 'New fact.' })).toMatchObject({ ok: true });
    expect(await readFile(file, 'utf8')).toMatch(/^Old\.\nThe user added this\.\n\n- \[[^\]]+\] New fact\.\n$/);
  });

  it('writes the user’s edited text when they changed the proposal in the approval dialog', async () => {
    kit = await createToolKit(tempDir);
    const file = join(kit.personaDir, 'MEMORY.md');
    await writeFile(file, 'Old.\n');
    const result = await kit.call(
      memoryAppendTool,
      { text: 'Wrong fact.' },
      { editedContent: 'Old.\nRight fact.\n', shownBefore: 'Old.\n' },
    );
    expect(result).toMatchObject({ ok: true, value: { entry: 'Right fact.' } });
    expect(await readFile(file, 'utf8')).toBe('Old.\nRight fact.\n');
  });
});

describe('memoryEntry', () => {
  const now = new Date(2026, 10, 23, 9, 5);
  it('formats entries for MEMORY.md and daily notes', () => {
    expect(memoryEntry('', 'x', 'MEMORY.md', now)).toBe('- [2026-11-23 09:05] x\n');
    expect(memoryEntry('', 'x', 'today', now)).toBe('# 2026-11-23\n\n- [09:05] x\n');
    expect(memoryEntry('# M\n\nPara.\n', 'x', 'MEMORY.md', now)).toBe('\n- [2026-11-23 09:05] x\n');
    expect(memoryEntry('- a\n', ' x\n\ny ', 'MEMORY.md', now)).toBe('- [2026-11-23 09:05] x\n\n  y\n');
    expect(appendTarget('today', now)).toBe('memory/2026-11-23.md');
  });
});

describe('the tool lists', () => {
  it('adds exactly the two memory tools, flagged memory-only, after the file and web tools (the skill tool last)', () => {
    expect(memoryTools.map((tool) => [tool.name, tool.memoryOnly])).toEqual([
      ['memory_search', true],
      ['memory_append', true],
    ]);
    expect(assistantTools.map((tool) => tool.name)).toEqual([
      ...fileTools.map((tool) => tool.name),
      'web_fetch',
      'web_search',
      'memory_search',
      'memory_append',
      'skill',
    ]);
    expect(memoryAppendTool.access(memoryAppendTool.input.parse({ text: 'x' }))).toEqual([
      { operation: 'edit', path: 'MEMORY.md' },
    ]);
    expect(memorySearchTool.access(memorySearchTool.input.parse({ query: 'x' }))).toEqual([
      { operation: 'read', path: 'MEMORY.md' },
      { operation: 'read', path: 'USER.md' },
      { operation: 'read', path: 'memory' },
    ]);
  });
});
