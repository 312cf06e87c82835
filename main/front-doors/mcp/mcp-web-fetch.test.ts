import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../../test-support/loopback-server';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';

/**
 * Issue 30 item 3 over MCP: web_fetch's per-host question goes to the client's user by elicitation;
 * "always" lists the host in settings web.allowedHosts, which is also what lets it be this
 * computer. Every request goes to a server on 127.0.0.1.
 */
const tempDir = useTempDirs();
const startSession = useMcpTestSessions();
const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function setup(answer: () => ElicitResult) {
  const home = await tempDir();
  const workspace = await tempDir();
  const session = await startSession({ home, workspace, approvalMode: 'approve-all', elicit: answer });
  const server = await startLoopbackServer();
  servers.push(() => server.close());
  const fetchPage = (path: string) =>
    session.client.callTool({ name: 'web_fetch', arguments: { url: `http://127.0.0.1:${server.port}${path}` } });
  return { ...session, home, server, fetchPage };
}

describe('web_fetch over MCP', () => {
  it('asks the client’s user by elicitation; "always" is kept in web.allowedHosts and not asked again', async () => {
    const { asked, server, fetchPage, home } = await setup(() => ({
      action: 'accept',
      content: { allow: 'workspace' },
    }));
    const first = await fetchPage('/first');
    expect(first.isError).not.toBe(true);
    expect(first.structuredContent).toMatchObject({
      final_url: `http://127.0.0.1:${server.port}/first`,
      kind: 'text',
      content: 'hello from /first',
      untrusted: true,
    });
    expect(asked).toHaveLength(1);
    const question = asked[0]!.params;
    expect(question.message).toContain('asks to read a web page');
    expect(question.message).toContain(`http://127.0.0.1:${server.port}/first from 127.0.0.1:${server.port}`);
    expect(JSON.stringify(question)).toContain('Always allow (kept in settings web.allowedHosts)');
    const settings = JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')) as {
      web: { allowedHosts: string[] };
    };
    expect(settings.web.allowedHosts).toEqual([`127.0.0.1:${server.port}`]);
    const second = await fetchPage('/second');
    expect(second.structuredContent).toMatchObject({ content: 'hello from /second' });
    expect(asked).toHaveLength(1);
  });

  it('an answer for this fetch only does not open this computer: loopback stays refused', async () => {
    const { asked, server, fetchPage } = await setup(() => ({ action: 'accept', content: { allow: 'once' } }));
    const result = await fetchPage('/local');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('this computer (loopback)');
    expect(asked).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });

  it('a declined question refuses the fetch and nothing reaches the server', async () => {
    const { asked, server, fetchPage } = await setup(() => ({ action: 'decline' }));
    const result = await fetchPage('/nope');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('the user refused');
    expect(asked).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});
