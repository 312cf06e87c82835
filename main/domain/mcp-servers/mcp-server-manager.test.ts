import { describe, expect, it } from 'vitest';
import { handWrittenServer } from '../../test-support/hand-written-mcp-server';
import { everythingServer, stdioServer, useMcpHost } from '../../test-support/mcp-host-kit';
import { stopLongCall } from '../../test-support/mcp-long-call';
import { confinementMode } from '../../platform/processes/confinement';

const host = useMcpHost();
const call = { signal: new AbortController().signal, timeoutMs: 15_000 };

describe('the MCP server manager', () => {
  it('starts server-everything over stdio, lists its tools and calls one', async () => {
    const { manager } = await host();
    manager.sync([stdioServer('everything', [everythingServer, 'stdio'])]);
    expect(manager.statuses()[0]?.state).toBe('starting');
    await manager.settled();
    const [status] = manager.statuses();
    expect(status).toMatchObject({ id: 'everything', state: 'ready', confined: confinementMode().confined });
    expect(status!.tools).toBeGreaterThan(5);
    const names = manager.tools().map((tool) => tool.name);
    expect(names).toContain('everything__echo');
    const echoed = await manager.call('everything', 'echo', { message: 'hello host' }, call);
    expect(echoed.ok && echoed.value.content).toEqual([{ type: 'text', text: 'Echo: hello host' }]);
  });

  it('reports progress of a long call and cancels one when its signal aborts', async () => {
    const { manager } = await host();
    manager.sync([stdioServer('everything', [everythingServer, 'stdio'])]);
    await manager.settled();
    const progress: number[] = [];
    const done = await manager.call(
      'everything',
      'trigger-long-running-operation',
      { duration: 1, steps: 3 },
      { ...call, onProgress: (n) => progress.push(n) },
    );
    expect(done.ok).toBe(true);
    // The last notification may race the result; the ones before it may not.
    expect(progress.slice(0, 2)).toEqual([1, 2]);
    const stopped = await stopLongCall(manager, call);
    expect(stopped.outcome).toBe('aborted');
    expect(stopped.ms).toBeLessThan(5000);
    // The session outlives a cancelled call.
    expect((await manager.call('everything', 'echo', { message: 'still here' }, call)).ok).toBe(true);
  });

  it('a server that crashes is restarted with back-off, then failed with its stderr tail', async () => {
    const { manager, script } = await host();
    const file = await script('server.mjs', handWrittenServer);
    const seen: string[] = [];
    manager.sync([stdioServer('crashy', [file, 'crash'])]);
    const until = Date.now() + 10_000;
    while (manager.statuses()[0]?.state !== 'failed' && Date.now() < until) {
      seen.push(manager.statuses()[0]!.state);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [status] = manager.statuses();
    expect(status?.state).toBe('failed');
    expect(seen).toContain('restarting');
    expect(status?.stderr).toContain('fatal: cannot open the database');
    const unavailable = await manager.call('crashy', 'anything', {}, call);
    expect(unavailable.ok ? 'ok' : unavailable.error.code).toBe('mcp_server_unavailable');
  });

  it('a server that never answers is timed out, and Restart tries again', async () => {
    const { manager, script } = await host({ startTimeoutMs: 500, backoffMs: [] });
    const file = await script('server.mjs', handWrittenServer);
    manager.sync([stdioServer('silent', [file, 'hang'])]);
    await manager.settled();
    expect(manager.statuses()[0]?.state).toBe('failed');
    expect(manager.statuses()[0]?.error).toContain('within');
    const again = manager.restart('silent');
    expect(manager.statuses()[0]?.state).toBe('starting');
    expect((await again).ok).toBe(true);
    expect(manager.statuses()[0]?.state).toBe('failed');
  });

  it('garbage lines, an invalid tool schema and a 20 MB answer never break the session', async () => {
    const { manager, script } = await host();
    const file = await script('server.mjs', handWrittenServer);
    manager.sync([stdioServer('faulty', [file, 'faulty'])]);
    await manager.settled();
    const [status] = manager.statuses();
    expect(status).toMatchObject({ state: 'ready', tools: 3 });
    expect(status?.skipped.map((entry) => entry.tool)).toEqual(['broken']);
    expect(status?.skipped[0]?.reason).toContain('invalid input schema');
    const huge = await manager.call('faulty', 'huge', {}, call);
    expect(huge.ok ? 'ok' : huge.error.code).toBe('mcp_tool_error');
    expect(huge.ok ? '' : huge.error.message).toContain('over 16 MB');
    const fine = await manager.call('faulty', 'ok', { n: 7 }, call);
    expect(fine.ok && fine.value.content).toEqual([{ type: 'text', text: 'n=7' }]);
  });

  it('starts twenty servers in parallel without anyone waiting for them', async () => {
    const { manager, script } = await host();
    const file = await script('server.mjs', handWrittenServer);
    const began = Date.now();
    manager.sync(Array.from({ length: 20 }, (_, n) => stdioServer(`s${n}`, [file, 'faulty'])));
    expect(Date.now() - began).toBeLessThan(200);
    expect(manager.statuses().every((status) => status.state === 'starting')).toBe(true);
    await manager.settled();
    expect(manager.statuses().filter((status) => status.state === 'ready')).toHaveLength(20);
  });
});
