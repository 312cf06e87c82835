import { afterEach, describe, expect, it } from 'vitest';
import { confinementMode } from '../../platform/processes/confinement';
import { handWrittenServer } from '../../test-support/hand-written-mcp-server';
import { startLoopbackServer } from '../../test-support/loopback-server';
import type { LoopbackServer } from '../../test-support/loopback-server';
import { stdioServer, useMcpHost } from '../../test-support/mcp-host-kit';

/**
 * A confined server's network (issue 29): none, except the hosts granted to it, through Familiar's
 * proxy; a refused host is shown beside the server. Only 127.0.0.1 is ever reached.
 */
const mode = confinementMode();
const host = useMcpHost();
const call = { signal: new AbortController().signal, timeoutMs: 15_000 };
const webs: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(webs.splice(0).map((web) => web.close()));
});
const textOf = (content: unknown) => (content as { text: string }[]).map((part) => part.text).join('\n');

describe.runIf(mode.confined && mode.socat !== undefined)('a confined MCP server’s network', () => {
  it('reaches no host it was not granted, and the refusal is shown beside it', async () => {
    const web = await startLoopbackServer();
    webs.push(web);
    const { manager, script } = await host();
    const file = await script('server.mjs', handWrittenServer);
    manager.sync([stdioServer('net', [file, 'faulty'])]);
    await manager.settled();
    const fetched = await manager.call('net', 'fetch', { url: `http://127.0.0.1:${web.port}/x` }, call);
    // Refused at the proxy: a 403, or (a client that tunnels plain http too) a failed CONNECT.
    expect(fetched.ok && textOf(fetched.value.content)).toMatch(/^(403 |failed)/);
    expect(web.requests).toEqual([]);
    expect(manager.statuses()[0]?.refusedHosts).toEqual([`127.0.0.1:${web.port}`]);
  });

  it('reaches a granted host through the proxy', async () => {
    const web = await startLoopbackServer();
    webs.push(web);
    const { manager, script } = await host();
    const file = await script('server.mjs', handWrittenServer);
    manager.sync([
      stdioServer('net', [file, 'faulty'], { grants: { writeWorkspace: false, hosts: [`127.0.0.1:${web.port}`] } }),
    ]);
    await manager.settled();
    const fetched = await manager.call('net', 'fetch', { url: `http://127.0.0.1:${web.port}/x` }, call);
    expect(fetched.ok && textOf(fetched.value.content)).toBe('200 hello from /x');
    expect(web.requests).toEqual(['GET /x']);
  });
});
