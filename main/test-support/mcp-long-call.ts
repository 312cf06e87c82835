import type { McpServerManager } from '../domain/mcp-servers/mcp-server-manager';

/**
 * Starts server-everything's ten-second operation and presses Stop after `stopAfterMs`:
 * what the call came back as (its error code, or ok) and how long it took.
 */
export async function stopLongCall(
  manager: McpServerManager,
  call: { readonly timeoutMs: number },
  stopAfterMs = 300,
): Promise<{ outcome: string; ms: number }> {
  const stop = new AbortController();
  const started = Date.now();
  setTimeout(() => stop.abort(), stopAfterMs);
  const cancelled = await manager.call(
    'everything',
    'trigger-long-running-operation',
    { duration: 10, steps: 10 },
    { ...call, signal: stop.signal },
  );
  return { outcome: cancelled.ok ? 'ok' : cancelled.error.code, ms: Date.now() - started };
}
