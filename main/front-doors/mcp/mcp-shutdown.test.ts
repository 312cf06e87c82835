import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useFamiliarMcpProcesses } from '../../test-support/mcp-process-kit';
import { seededRandom } from '../../test-support/seeded-random';
import { useTempDirs } from '../../test-support/temp-dir';

/**
 * `familiar-mcp` on stdio exits within a second of its stdin closing, even while an index builds in
 * the background (issue 32 item 8). Before, nothing listened for the end of stdin: an idle server
 * exited because its event loop emptied, a building one only once the build was over, and one with
 * the semantic index's file watcher never.
 */

const tempDir = useTempDirs();
const mcp = useFamiliarMcpProcesses();
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/**
 * Stdin closed to the exit the parent sees, teardown included. The server keeps within a second: it
 * gives ending its core 600 ms, then kills itself and says so on stderr (mcp.ts). The other 500 ms
 * are for the kernel: an index thread runs at the lowest priority, and the process is gone only once
 * each of its threads has been scheduled to end. Measured on 2 cores: 15 to 550 ms idle, up to
 * 850 ms with two busy processes beside the test, over 2 s with more (in a normal full run: 25 to 80 ms).
 */
const EXIT_BUDGET_MS = 1500;

/** Exited in time: cleanly, or killed by itself at its deadline, saying why. */
function expectPromptExit(exit: { ms: number; code: number | null | undefined; stderr: string }): void {
  expect(exit.ms, exit.stderr).toBeLessThan(EXIT_BUDGET_MS);
  if (exit.code !== 0) expect(exit.stderr).toMatch(/stopping took over \d+ ms .*: killed/);
}

/**
 * 6,000 files of 5 KB: a first trigram build runs for about 5 s on 2 cores (a server without this
 * fix went on that long after its stdin closed), a first semantic one about as long. Making them
 * takes seconds too: hence the longer timeouts.
 */
async function bigTree(): Promise<{ workspace: string; home: string }> {
  const root = await tempDir('familiar-mcp-shutdown-');
  const workspace = join(root, 'project');
  const random = seededRandom(32);
  // Words of random letters: many distinct trigrams and terms, as real text has (a few lines repeated
  // over and over would be indexed in no time).
  const word = () =>
    Array.from({ length: 3 + Math.floor(random() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
  const text = () => Array.from({ length: 60 }, () => `lorem ${Array.from({ length: 10 }, word).join(' ')}\n`).join('');
  for (let folder = 0; folder < 60; folder += 1) {
    const dir = join(workspace, `module-${folder}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: 100 }, (_, file) => writeFile(join(dir, `part-${file}.ts`), text())));
  }
  return { workspace: await realpath(workspace), home: join(root, 'home') };
}

/**
 * The server as a client starts it, over its pipes. The SDK's client transport would end stdin on
 * close and then wait, SIGTERM and SIGKILL by itself; here the test ends stdin and times the exit.
 * (Stdio framing is the same both ways: the server's transport class reads the child's stdout and
 * writes its stdin.)
 */
async function start() {
  const { workspace, home } = await bigTree();
  const child = spawn(process.execPath, [mcp.script(), '--workspace', workspace, '--home', home], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: performance.now() })),
  );
  const client = new Client({ name: 'shutdown-client', version: '1.0.0' });
  await client.connect(new StdioServerTransport(child.stdout, child.stdin));
  /** Ends stdin; answers how long the exit took (Infinity: not within twice the budget). */
  const closeStdin = async () => {
    const closed = performance.now();
    child.stdin.end();
    const timeout = new Promise<undefined>((resolve) =>
      setTimeout(() => resolve(undefined), 2 * EXIT_BUDGET_MS).unref(),
    );
    const exit = await Promise.race([exited, timeout]);
    return { ms: exit === undefined ? Infinity : exit.at - closed, code: exit?.code, stderr };
  };
  return { client, closeStdin };
}

describe('familiar-mcp on stdio, its stdin closed', () => {
  it('exits within a second while the trigram index builds in the background', async () => {
    const { client, closeStdin } = await start();
    // The first search starts the build of the whole workspace's index (and answers by scanning
    // meanwhile); the second says it is under way. Both search one folder: they are over in no time.
    const search = { name: 'search_in_code', arguments: { query: 'lorem', path: 'module-0' } };
    await client.callTool(search);
    const second = (await client.callTool(search)).structuredContent as { index?: { state: string } };
    expect(second.index?.state).toMatch(/^(loading|building)$/);
    expectPromptExit(await closeStdin());
  }, 60_000);

  it('exits within a second while the semantic index builds', async () => {
    const { client, closeStdin } = await start();
    // The first query answers within a second from what is indexed so far (issue 32): the build goes on.
    const first = await client.callTool({ name: 'file_semantic_search', arguments: { query: 'lorem' } });
    const answer = first.structuredContent as { state?: string; coverage?: { files_indexed: number } };
    expect(answer.state).toBe('building');
    expectPromptExit(await closeStdin());
  }, 60_000);
});
