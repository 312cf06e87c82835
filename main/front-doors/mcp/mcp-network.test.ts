import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { networkedConfinement } from '../../test-support/networked-confinement';
import { useClosers } from '../../test-support/closers';
import { startLoopbackServer } from '../../test-support/loopback-server';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';

/**
 * Issue 28, item 2, over MCP: the host a confined command reaches for is asked about by elicitation,
 * with the three spans of "allow"; "always in this workspace" is kept in settings.json. Every
 * request goes to a server on 127.0.0.1.
 */
const { networked, skipped } = networkedConfinement();

const tempDir = useTempDirs();
const startSession = useMcpTestSessions();
const closeAfter = useClosers();

async function setup(answer: () => ElicitResult) {
  const home = await tempDir();
  const workspace = await tempDir();
  const session = await startSession({ home, workspace, approvalMode: 'approve-all', elicit: answer });
  const server = await startLoopbackServer();
  closeAfter(() => server.close());
  const curl = async (path: string) => {
    const result = await session.client.callTool({
      name: 'run_command',
      arguments: { command: `curl -sS -w ' [%{http_code}]' http://127.0.0.1:${server.port}${path}`, shell: true },
    });
    return (result.structuredContent as { stdout: string }).stdout;
  };
  return { ...session, home, workspace, server, curl };
}

describe.runIf(networked)(`a command’s network question over MCP${skipped}`, () => {
  it('goes to the client’s user by elicitation, naming the host; "always" is kept in settings', async () => {
    const { asked, server, curl, home, workspace } = await setup(() => ({
      action: 'accept',
      content: { allow: 'workspace' },
    }));
    expect(await curl('/first')).toBe('hello from /first [200]');
    expect(asked).toHaveLength(1);
    const question = asked[0]!.params;
    expect(question.message).toContain(`wants to reach 127.0.0.1:${server.port}`);
    expect(JSON.stringify(question)).toContain('Always allow in this workspace');
    expect(await curl('/second')).toBe('hello from /second [200]');
    expect(asked).toHaveLength(1);
    const settings = JSON.parse(await readFile(join(home, 'settings.json'), 'utf8')) as {
      commands: { allowedHosts: unknown[] };
    };
    expect(settings.commands.allowedHosts).toEqual([
      { host: '127.0.0.1', port: server.port, workspace: await realpath(workspace), local: false },
    ]);
  });

  it('a declined question is a 403 and nothing reaches the server', async () => {
    const { asked, server, curl } = await setup(() => ({ action: 'decline' }));
    const said = await curl('/nope');
    expect(said).toContain('[403]');
    expect(said).toContain('the user refused');
    expect(asked).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});
