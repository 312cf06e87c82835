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
 * first use: `import()` in the module that needs it). At every start they cost ~450 ms of module
 * loading on the 2-core CI machine, with the file threads' own copy of zod.
 */
const loadedOnFirstUse = [
  'linkedom', // web_fetch's HTML reader (tools/web/page-content.ts)
  '@mozilla/readability',
  'turndown',
  '@ai-sdk/openai', // a model or an embedder (domain/providers/provider-sdks.ts)
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  'yaml', // the first SKILL.md (domain/skills/skill-catalog.ts)
  'vscode-jsonrpc', // the first language server (domain/lsp/language-client.ts)
  '@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js', // --http only (front-doors/mcp/mcp-http.ts)
];

/** Module hooks that write every URL the process loads (its threads included) to `log`, one a line. */
const hooks = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  appendFileSync(log, url + '\\n');
  return next(url, context);
}`;

test('the MCP server starts without the packages it loads on first use, and its file threads without zod', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'familiar-startup-'));
  try {
    const log = join(dir, 'loaded.txt');
    await writeFile(log, '');
    await writeFile(join(dir, 'hooks.mjs'), hooks);
    await writeFile(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
    );
    const workspace = join(dir, 'workspace');
    const home = join(dir, 'home');
    await mkdir(workspace);
    await writeFile(join(workspace, 'note.txt'), 'a line to find\n');
    const client = new Client({ name: 'startup-modules', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', join(dir, 'register.mjs'), mcpEntry, '--workspace', workspace, '--home', home],
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
    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    // The hooks saw the app load (so a miss below is a real one, not a log that stayed empty).
    expect(loaded.some((url) => url.includes('/out/main/chunks/create-core-'))).toBe(true);
    // The file threads started under the same hooks.
    expect(loaded.some((url) => url.endsWith('/node_modules/piscina/dist/worker.js'))).toBe(true);
    const early = loadedOnFirstUse.filter((name) =>
      loaded.some((url) => url.includes(`/node_modules/${name}/`) || url.endsWith(`/node_modules/${name}`)),
    );
    expect(early, 'packages loaded at start').toEqual([]);
    // zod once, by the main thread: the file threads' modules (shared/result.ts, errors.ts) hold none.
    const zodEntry = loaded.filter((url) => url.endsWith('/node_modules/zod/v4/classic/external.js'));
    expect(zodEntry).toHaveLength(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
