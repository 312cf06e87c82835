import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useFamiliarMcpProcesses } from '../../test-support/mcp-process-kit';
import { useTempDirs } from '../../test-support/temp-dir';

/** main/mcp.ts as `familiar-mcp` runs it, without --workspace: roots over stdio, and --http. */

const tempDir = useTempDirs();
const mcp = useFamiliarMcpProcesses();
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function project() {
  const root = await tempDir('familiar-mcp-entry-');
  const workspace = join(root, 'project');
  await mkdir(workspace);
  await writeFile(join(workspace, 'notes.md'), 'from the root\n');
  return { workspace: await realpath(workspace), home: join(root, 'home') };
}

describe('familiar-mcp without --workspace', () => {
  it('with --help prints the usage and exits 0, though it started its file threads first', async () => {
    const child = spawn(process.execPath, [mcp.script(), '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stderr).toContain('Usage: familiar-mcp');
  }, 20_000);

  it('over stdio, works in the folder the client offers as its root', async () => {
    const { workspace, home } = await project();
    const client = new Client({ name: 'roots-client', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(workspace).href }] }));
    await mcp.connect(
      client,
      new StdioClientTransport({ command: process.execPath, args: [mcp.script(), '--home', home], stderr: 'pipe' }),
    );
    await expect
      .poll(
        async () => (await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } })).structuredContent,
      )
      .toMatchObject({ content: 'from the root' });
  });

  it('with --http, prints the URL and token on stderr (nothing on stdout) and serves a client with the token', async () => {
    const { workspace, home } = await project();
    const child = spawn(process.execPath, [mcp.script(), '--workspace', workspace, '--home', home, '--http'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FAMILIAR_MCP_TOKEN: '' },
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const started = new Promise<{ url: string; token: string }>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const url = /Streamable HTTP: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
        const token = /Authorization: Bearer (\S+)/.exec(stderr)?.[1];
        if (url !== undefined && token !== undefined) resolve({ url, token });
      });
      child.once('exit', (code) => reject(new Error(`familiar-mcp --http exited (${code}): ${stderr}`)));
    });
    const { url, token } = await started;
    const client = new Client({ name: 'http-client', version: '1.0.0' });
    await mcp.connect(
      client,
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
    expect(read).toMatchObject({ structuredContent: { content: 'from the root' } });
    expect(stdout).toBe('');
  });

  it.runIf(process.platform === 'linux')(
    'runs under the allocator tunables and with its young generation sized where glibc and process.execve allow: the same process, arguments and streams',
    async () => {
      const { workspace, home } = await project();
      const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
        ?.glibcVersionRuntime;
      const relaunches = glibc !== undefined && typeof (process as { execve?: unknown }).execve === 'function';
      const sized = ['--min-semi-space-size=8'];
      const cases = [
        { chosen: undefined, own: [], flags: relaunches ? sized : [] },
        // A person's allocator setting: no relaunch, so no flags either.
        { chosen: '4', own: [], flags: [] },
        // A person's own young generation: theirs alone.
        { chosen: undefined, own: ['--max-semi-space-size=4'], flags: ['--max-semi-space-size=4'] },
      ];
      for (const { chosen, own, flags } of cases) {
        const args = [mcp.script(), '--workspace', workspace, '--home', home];
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [...own, ...args],
          env: { ...getDefaultEnvironment(), ...(chosen === undefined ? {} : { MALLOC_ARENA_MAX: chosen }) },
          stderr: 'pipe',
        });
        const client = new Client({ name: 'tunables-client', version: '1.0.0' });
        await mcp.connect(client, transport);
        const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
        expect(read).toMatchObject({ structuredContent: { content: 'from the root' } });
        const pid = transport.pid!;
        const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
        const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
        expect(cmdline.slice(-args.length)).toEqual(args);
        expect(cmdline.slice(1, -args.length)).toEqual(flags);
        const arenaMax = environ.find((entry) => entry.startsWith('MALLOC_ARENA_MAX='));
        const threshold = environ.find((entry) => entry.startsWith('MALLOC_MMAP_THRESHOLD_='));
        if (chosen !== undefined) expect([arenaMax, threshold]).toEqual([`MALLOC_ARENA_MAX=${chosen}`, undefined]);
        else if (relaunches)
          expect([arenaMax, threshold]).toEqual(['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072']);
        else expect([arenaMax, threshold]).toEqual([undefined, undefined]);
        await client.close();
      }
    },
  );
});
