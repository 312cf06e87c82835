import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { confinementMode } from '../../platform/processes/confinement';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { isAlive } from '../../test-support/process-alive';
import { useTempDirs } from '../../test-support/temp-dir';
import { waitingSandboxes } from '../../test-support/waiting-sandboxes';

const tempDir = useTempDirs();
const session = useMcpTestSessions();
const mode = confinementMode();

describe.skipIf(!mode.confined || ripgrepOnPath() === undefined)('ripgrep made ready for an MCP client', () => {
  it("makes ripgrep's sandbox once the handshake is done; the first search starts in it, the next one's follows", async () => {
    const workspace = await tempDir();
    await writeFile(join(workspace, 'a.txt'), 'a needle here\n');
    await writeFile(join(workspace, 'b.txt'), 'nothing\n');
    const { client } = await session({ home: await tempDir(), workspace });
    const one = () => {
      const waiting = waitingSandboxes();
      expect(waiting).toHaveLength(1);
      return waiting[0]!;
    };
    const first = await vi.waitFor(one, { timeout: 5000 });
    const found = await client.callTool({ name: 'search_in_code', arguments: { query: 'needle' } });
    expect(found.structuredContent).toMatchObject({ total_matches: 1, walk: 'ripgrep', engine: 'ripgrep' });
    // It ran that search's ripgrep and ended with it (a fresh start would have left it waiting).
    expect(isAlive(first)).toBe(false);
    // The next search's sandbox, made once this one's ripgrep is done.
    const next = await vi.waitFor(one, { timeout: 5000 });
    expect(next).not.toBe(first);
  });
});
