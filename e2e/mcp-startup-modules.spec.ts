import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const mcpEntry = join(import.meta.dirname, '..', 'out', 'main', 'mcp.js');

/**
 * Packages the MCP server must not load before it is asked for what they do (each loads by its
 * first use: `import()` in the module that needs it). At every start they cost ~500 ms of module
 * loading on a 2-core machine, with the file threads' own copy of zod.
 */
const loadedOnFirstUse = [
  'linkedom', // web_fetch's HTML reader (tools/web/page-content.ts)
  '@mozilla/readability',
  'turndown',
  'ai', // the first turn, sampling, connection test or embedding (agent/chat-service.ts loads run-turn.ts)
  '@ai-sdk/openai', // a model or an embedder (domain/providers/provider-sdks.ts)
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  'yaml', // the first SKILL.md (domain/skills/skill-catalog.ts)
  'vscode-jsonrpc', // the first language server (domain/lsp/language-client.ts)
  '@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js', // --http only (front-doors/mcp/mcp-http.ts)
];

/**
 * Preloaded in every thread (`--import`; worker threads inherit the flag): synchronous module hooks
 * that write each module a thread loads, as `<threadId> <url>`, to `log`. Synchronous hooks see
 * `require()` too, which piscina loads the file threads' module with.
 */
const preload = (log: string) => `import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { threadId } from 'node:worker_threads';
registerHooks({
  load(url, context, nextLoad) {
    appendFileSync(${JSON.stringify(log)}, threadId + ' ' + url + '\\n');
    return nextLoad(url, context);
  },
});
`;

test('the MCP server starts without the packages it loads on first use, and its file threads without zod', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'familiar-startup-'));
  try {
    const log = join(dir, 'loaded.txt');
    await writeFile(log, '');
    await writeFile(join(dir, 'preload.mjs'), preload(log));
    const workspace = join(dir, 'workspace');
    const home = join(dir, 'home');
    await mkdir(workspace);
    await writeFile(join(workspace, 'note.txt'), 'a line to find\n');
    const client = new Client({ name: 'startup-modules', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          '--import',
          pathToFileURL(join(dir, 'preload.mjs')).href,
          mcpEntry,
          '--workspace',
          workspace,
          '--home',
          home,
          // Not the user's own ~/.agents/skills: a skill there loads YAML at the start, rightly.
          '--user-skills',
          join(dir, 'user-skills'),
        ],
        stderr: 'ignore',
      }),
    );
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('search_in_code');
      // The file threads have started by now, and loaded what they load.
      await client.callTool({ name: 'search_in_code', arguments: { query: 'line to find' } });
    } finally {
      await client.close();
    }
    const loaded = (await readFile(log, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ thread: line.slice(0, line.indexOf(' ')), url: line.slice(line.indexOf(' ') + 1) }));
    const threadsThat = (loads: (url: string) => boolean) =>
      new Set(loaded.filter(({ url }) => loads(url)).map(({ thread }) => thread));
    // The hooks saw the app load in the main thread, and the file threads' own module in each of
    // those (so a miss below is a real one, not a log that stayed empty).
    expect([...threadsThat((url) => url.includes('/out/main/chunks/create-core-'))]).toEqual(['0']);
    const fileThreads = threadsThat((url) => url.endsWith('/out/main/fs-worker.js'));
    expect(fileThreads.size).toBeGreaterThanOrEqual(1);
    expect(fileThreads.has('0')).toBe(false);
    const early = loadedOnFirstUse.filter(
      (name) =>
        threadsThat((url) => url.includes(`/node_modules/${name}/`) || url.endsWith(`/node_modules/${name}`)).size > 0,
    );
    expect(early, 'packages loaded at start').toEqual([]);
    // zod in the main thread only: the file threads' modules (shared/result.ts, errors.ts) hold none.
    expect([...threadsThat((url) => url.includes('/node_modules/zod/'))]).toEqual(['0']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
