import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as outputProcess from '../../platform/processes/output-process';
import { confinementMode } from '../../platform/processes/confinement';
import { ripgrepOnPath } from '../../platform/processes/ripgrep-locate';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';
import { waitingSandboxes } from '../../test-support/waiting-sandboxes';

/** The pid of every ripgrep walk's process (bwrap's, or the sandbox made ahead that ran it). */
const walks = vi.hoisted(() => [] as number[]);
vi.mock('../../platform/processes/output-process', async (importOriginal) => {
  const original = await importOriginal<typeof outputProcess>();
  return {
    ...original,
    startOutputFileProcess: (spec: outputProcess.OutputProcessSpec) => {
      const run = original.startOutputFileProcess(spec);
      walks.push(run.child.pid ?? -1);
      return run;
    },
  };
});
afterEach(() => void (walks.length = 0));

const tempDir = useTempDirs();
const session = useMcpTestSessions();
const mode = confinementMode();

describe.skipIf(!mode.confined || ripgrepOnPath() === undefined)('ripgrep made ready for an MCP client', () => {
  for (const bound of ['--workspace', 'the client’s roots'] as const)
    it(`makes ripgrep's sandbox once the handshake is done (${bound}); the first search starts in it, the next one's follows`, async () => {
      const workspace = await realpath(await tempDir());
      await writeFile(join(workspace, 'a.txt'), 'a needle here\n');
      await writeFile(join(workspace, 'b.txt'), 'nothing\n');
      const home = await tempDir();
      const { client, core } = await session(
        bound === '--workspace' ? { home, workspace } : { home, roots: [{ uri: pathToFileURL(workspace).href }] },
      );
      await vi.waitFor(() => expect(core.workspace.current()).toBe(workspace), { timeout: 5000 });
      const one = () => {
        const waiting = waitingSandboxes(workspace);
        expect(waiting).toHaveLength(1);
        return waiting[0]!;
      };
      // With roots, the one made as the handshake ended (for the core's own folder) goes once the
      // roots' folder is bound, and that folder gets its own: the one that serves.
      const first = await vi.waitFor(one, { timeout: 5000 });
      const found = await client.callTool({ name: 'search_in_code', arguments: { query: 'needle' } });
      expect(found.structuredContent).toMatchObject({ total_matches: 1, walk: 'ripgrep', engine: 'ripgrep' });
      // That very process ran the search's ripgrep.
      expect(walks).toEqual([first]);
      // The next search's sandbox, made once this one's ripgrep is done.
      const next = await vi.waitFor(one, { timeout: 5000 });
      expect(next).not.toBe(first);
    });
});
