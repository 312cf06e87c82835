import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useTempDirs } from '../test-support/temp-dir';
import type { Core } from './create-core';
import { useTestCores } from '../test-support/test-core';
import { fileTools } from '../tools';

type LanguageServerRows = { servers: { id: string; state: string }[] };

const tempDir = useTempDirs();
const testCore = useTestCores();
/** The tools that wait for a language server; main/tools/index.test.ts pins that these are the code_* ones. */
const codeTools = fileTools.filter((tool) => tool.needsLanguageServer === true).map((tool) => tool.name);

async function coreOn(files: Record<string, string>): Promise<Core> {
  const workspace = await tempDir();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(workspace, path, '..'), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  return testCore({ home: await tempDir(), workspace });
}

/** What the model is offered for the next turn (the list is read after the system prompt, as run-turn does). */
async function offered(core: Core): Promise<string[]> {
  await core.assistant.toolCalls.systemPrompt('c1');
  return core.assistant.toolCalls.list('c1').map((tool) => tool.name);
}

describe('code tools are offered only with a language server for the workspace', () => {
  it('a workspace without code files lists no code_* tool, and a call says why', async () => {
    const core = await coreOn({ 'notes.md': '# notes\n', 'data/table.csv': 'a,b\n' });
    const names = await offered(core);
    expect(names).toContain('read_file');
    expect(names.filter((name) => name.startsWith('code_'))).toEqual([]);
    const call = await core.assistant.toolCalls.execute(
      { conversationId: 'c1', toolCallId: 't1', name: 'code_hover', args: { symbol: 'x' } },
      new AbortController().signal,
    );
    expect(call).toMatchObject({ ok: false, error: { code: 'unknown_tool', message: /language server/ } });
  });

  it('a workspace with a .ts file (deep in a folder) lists every code tool, without starting a server', async () => {
    const core = await coreOn({ 'README.md': '# x\n', 'packages/app/src/main.ts': 'export const a = 1;\n' });
    expect(await offered(core)).toEqual(expect.arrayContaining(codeTools));
    expect(core.assistant.toolCalls.list('c1').map((tool) => tool.name)).toEqual(expect.arrayContaining(codeTools));
    const panel = await core.dispatch('languageServers.list', {}, { transport: 'direct', clientId: 'test' });
    expect(panel).toMatchObject({ ok: true });
    const rows = panel.ok ? (panel.value as LanguageServerRows).servers : [];
    expect(rows.find((row) => row.id === 'typescript')?.state).toBe('stopped');
  });

  it('a project copied in later (a folder with code inside, seen by the watcher) brings the code tools on the next turn', async () => {
    const core = await coreOn({ 'notes.md': '# notes\n' });
    expect((await offered(core)).filter((name) => name.startsWith('code_'))).toEqual([]);
    // The pane lists the root, so the watcher follows it; the project arrives as one new folder.
    const changed: unknown[] = [];
    const stop = core.events.subscribe((name, payload) => {
      if (name === 'workspace.changed') changed.push(payload);
    });
    await core.dispatch('workspace.listDir', { path: '.' }, { transport: 'direct', clientId: 'test' });
    const workspace = core.workspace.current();
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src', 'money.ts'), 'export const cents = 1;\n');
    await vi.waitFor(() => expect(changed.length).toBeGreaterThan(0), { timeout: 5000 });
    stop();
    expect(await offered(core)).toEqual(expect.arrayContaining(codeTools));
  });

  it('a .ts file git ignores does not count', async () => {
    const core = await coreOn({ '.gitignore': 'build/\n', 'build/out.ts': 'export {};\n', 'notes.md': '#\n' });
    expect((await offered(core)).filter((name) => name.startsWith('code_'))).toEqual([]);
  });

  it('a server the user adds in settings makes its files count', async () => {
    const core = await coreOn({ 'scripts/init.lua': 'print(1)\n' });
    expect((await offered(core)).filter((name) => name.startsWith('code_'))).toEqual([]);
    const updated = await core.dispatch(
      'settings.update',
      {
        code: {
          servers: [
            { id: 'lua', command: process.execPath, args: ['lua-server.js'], patterns: ['.lua'], languageId: 'lua' },
          ],
        },
      },
      { transport: 'direct', clientId: 'test' },
    );
    expect(updated).toMatchObject({ ok: true });
    expect(await offered(core)).toEqual(expect.arrayContaining(codeTools));
  });
});
