import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElicitResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../../tool-calls/ask';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import type { McpTestSessionOptions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';
import { assistantTools } from '../../tools/index';
import { simpleSkill, writeSkill } from '../../../e2e/fixtures/skill-folders';

/**
 * MCP mode's calls as the official client SDK sees them, in process over the in-memory transport:
 * the hints every tool carries, approvals through elicitation, progress and cancellation.
 */

const tempDir = useTempDirs();
const startSession = useMcpTestSessions();

async function connect(approvalMode: ApprovalMode, elicit?: McpTestSessionOptions['elicit']) {
  const workspace = await tempDir();
  // A TypeScript file, so the code tools (offered only with a language server for the workspace) are listed too.
  await writeFile(join(workspace, 'index.ts'), 'export const answer = 42;\n');
  // An Agent Skill in the home, so the skill tool (offered only while one is loaded) is listed too.
  const home = await tempDir();
  await writeSkill(join(home, 'skills'), 'notes', simpleSkill('notes', 'Keep notes.', 'Write them down.\n'));
  // A search service, so web_search (offered only while one is configured) is listed too.
  await writeFile(
    join(home, 'settings.json'),
    JSON.stringify({ web: { search: { service: 'searxng', searxngUrl: 'http://127.0.0.1:9/' } } }),
  );
  const session = await startSession({ home, workspace, approvalMode, elicit });
  // As a real client does first: it also makes the SDK check every result against its outputSchema.
  await session.client.listTools();
  return { ...session, workspace };
}

const code = (result: unknown) => (result as { structuredContent?: { code?: string } }).structuredContent?.code;

/**
 * What each tool does to the world, written by hand from the tools' documented behaviour, not
 * derived from the code under test: r = read-only, a = only adds, d = destructive; i = idempotent,
 * o = reaches beyond the workspace.
 */
const expectedHints: Record<string, string> = {
  read_file: 'r i',
  write_file: 'd i',
  edit_file: 'd',
  list_files: 'r i',
  search_in_code: 'r i',
  get_file_info: 'r i',
  create_directory: 'a i',
  move_file: 'd',
  delete_file: 'd i',
  run_command: 'd o',
  git_status: 'r i',
  git_diff: 'r i',
  git_commit: 'a',
  file_upload: 'a',
  file_download: 'r i',
  web_fetch: 'r i o',
  web_search: 'r i o',
  file_semantic_search: 'r i',
  code_diagnostics: 'r i',
  code_definition: 'r i',
  code_references: 'r i',
  code_hover: 'r i',
  code_symbols: 'r i',
  code_rename: 'd',
  code_format: 'd i',
  memory_search: 'r i',
  memory_append: 'a',
  skill: 'r i',
};

describe('MCP tools carry their hints and output schema', () => {
  it('gives every tool a title, the right annotations and an object outputSchema', async () => {
    const { client } = await connect('refuse');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(assistantTools.map((tool) => tool.name));
    for (const tool of tools) {
      const expected = expectedHints[tool.name];
      expect(expected, `${tool.name} has no expected hints in this test`).toBeDefined();
      const [effect, ...flags] = expected!.split(' ');
      expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect({ name: tool.name, ...tool.annotations }).toEqual({
        name: tool.name,
        title: tool.title,
        readOnlyHint: effect === 'r',
        destructiveHint: effect === 'd',
        idempotentHint: flags.includes('i'),
        openWorldHint: flags.includes('o'),
      });
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
  });
});

describe('MCP tool results', () => {
  it('carry the object as structuredContent and its compact JSON as text (a long listing is megabytes indented)', async () => {
    const { client, workspace } = await connect('refuse');
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src', 'a "quoted" name.ts'), '');
    const result = await client.callTool({ name: 'list_files', arguments: { recursive: true } });
    expect(result.isError, JSON.stringify(result)).not.toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    const { entries } = result.structuredContent as { entries: { path: string }[] };
    expect(entries.map((entry) => entry.path)).toEqual(expect.arrayContaining(['index.ts', 'src/a "quoted" name.ts']));
  });
});

describe('approvals through elicitation', () => {
  it('asks the client user with the diff, and writes the file when they accept', async () => {
    const { client, workspace, asked } = await connect('refuse', () => ({
      action: 'accept',
      content: { allow_for_session: false },
    }));
    await writeFile(join(workspace, 'notes.md'), 'old line\n');
    const result = await client.callTool({
      name: 'write_file',
      arguments: { path: 'notes.md', content: 'new line\n' },
    });
    expect(result.isError, JSON.stringify(result)).not.toBe(true);
    expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe('new line\n');
    expect(asked).toHaveLength(1);
    const message = asked[0]!.params.message;
    expect(message).toContain('notes.md');
    expect(message).toContain('-old line');
    expect(message).toContain('+new line');
    // Nothing was offered to keep: the next write asks again.
    await client.callTool({ name: 'write_file', arguments: { path: 'notes.md', content: 'third\n' } });
    expect(asked).toHaveLength(2);
  });

  it('offers to allow the rest of the session, and then asks no more for that file', async () => {
    const { client, workspace, asked } = await connect('refuse', () => ({
      action: 'accept',
      content: { allow_for_session: true },
    }));
    await writeFile(join(workspace, 'notes.md'), 'old line\n');
    for (const content of ['one\n', 'two\n']) {
      const result = await client.callTool({ name: 'write_file', arguments: { path: 'notes.md', content } });
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
    }
    expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe('two\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).toMatchObject({
      requestedSchema: { properties: { allow_for_session: { type: 'boolean' } } },
    });
  });

  it('answers user_rejected and leaves the disk alone when they decline or cancel', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { client, workspace, asked } = await connect('refuse', () => ({ action }));
      await writeFile(join(workspace, 'notes.md'), 'old line\n');
      const result = await client.callTool({
        name: 'write_file',
        arguments: { path: 'notes.md', content: 'new line\n' },
      });
      expect(result.isError, action).toBe(true);
      expect(code(result), action).toBe('user_rejected');
      expect(asked, action).toHaveLength(1);
      expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe('old line\n');
    }
  });

  it('withdraws the question when the call is cancelled while the user decides, writing nothing', async () => {
    // The user never answers.
    const { client, workspace, asked, sent } = await connect(
      'refuse',
      () => new Promise<ElicitResult>(() => undefined),
    );
    await writeFile(join(workspace, 'notes.md'), 'old line\n');
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'write_file', arguments: { path: 'notes.md', content: 'new line\n' } }, undefined, {
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    await waitFor(() => Promise.resolve(asked.length === 1 ? true : undefined), 5000);
    controller.abort('changed my mind');
    expect(await call).toBeInstanceOf(Error);
    // The server withdraws its question (notifications/cancelled for the elicitation/create it sent).
    const question = sent.find((message) => 'method' in message && message.method === 'elicitation/create');
    const withdrawn = () =>
      sent.some(
        (message) =>
          'method' in message &&
          message.method === 'notifications/cancelled' &&
          question !== undefined &&
          'id' in question &&
          message.params?.['requestId'] === question.id,
      );
    await waitFor(() => Promise.resolve(withdrawn() ? true : undefined), 5000);
    expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toBe('old line\n');
  });

  it('keeps approval_required for a client without elicitation, and --approve all asks nobody', async () => {
    const refused = await connect('refuse');
    await writeFile(join(refused.workspace, 'notes.md'), 'old line\n');
    const result = await refused.client.callTool({ name: 'write_file', arguments: { path: 'notes.md', content: 'x' } });
    expect(code(result)).toBe('approval_required');
    expect(await readFile(join(refused.workspace, 'notes.md'), 'utf8')).toBe('old line\n');

    const trusted = await connect('approve-all', () => ({ action: 'decline' }));
    const written = await trusted.client.callTool({ name: 'write_file', arguments: { path: 'a.md', content: 'x' } });
    expect(written.isError).not.toBe(true);
    expect(trusted.asked).toEqual([]);
  });
});

describe('progress and cancellation', () => {
  it('sends increasing progress during a search over a big tree, ending at the number of files searched', async () => {
    const { client, workspace } = await connect('refuse');
    for (let dir = 0; dir < 30; dir += 1) {
      await mkdir(join(workspace, `d${dir}`));
      await Promise.all(
        Array.from({ length: 100 }, (_, file) =>
          writeFile(join(workspace, `d${dir}`, `f${file}.txt`), `line ${dir}/${file}\nneedle\n`),
        ),
      );
    }
    const seen: Progress[] = [];
    const result = await client.callTool({ name: 'search_in_code', arguments: { query: 'needle' } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(result.isError).not.toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const values = seen.map((progress) => progress.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    // The generated files plus the persona files shown at the root.
    const searched = (result.structuredContent as { searched_files: number }).searched_files;
    expect(searched).toBeGreaterThanOrEqual(3000);
    expect(seen.at(-1)).toMatchObject({ progress: searched, total: searched });
  });

  it.skipIf(process.platform === 'win32')(
    'a cancelled sleep 30 ends within a second, with every process of its group',
    async () => {
      const { client, workspace } = await connect('approve-all');
      const controller = new AbortController();
      const seen: Progress[] = [];
      const call = client
        .callTool(
          {
            name: 'run_command',
            // A child that appends while it lives: a confined command's pids are its namespace's own, so
            // "every process ended" is read from the file, which stops growing.
            arguments: { command: '(while :; do echo x >> beat; sleep 0.05; done) & sleep 30; wait', shell: true },
          },
          undefined,
          { signal: controller.signal, onprogress: (progress) => seen.push(progress) },
        )
        .catch((error: unknown) => error);
      const beat = join(workspace, 'beat');
      const size = async () => (await readFile(beat, 'utf8').catch(() => '')).length;
      await waitFor(async () => ((await size()) > 2 ? true : undefined), 10_000);
      // A running command says it is alive: seconds used of its timeout (30 s by default).
      const first = await waitFor(() => Promise.resolve(seen[0]), 5000);
      expect(first.total).toBe(30);
      expect(first.progress).toBeGreaterThanOrEqual(1);
      const cancelledAt = Date.now();
      controller.abort('the user changed their mind');
      await call;
      // Stopped: no append for 200 ms (four heartbeats).
      await waitFor(async () => {
        const before = await size();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return (await size()) === before ? true : undefined;
      }, 1000);
      expect(Date.now() - cancelledAt).toBeLessThan(1000);
    },
  );
});

/** Polls until `probe` answers, or fails after `withinMs`. */
async function waitFor<T>(probe: () => Promise<T | undefined>, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
