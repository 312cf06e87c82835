import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinementMode } from '../../platform/processes/confinement';
import { filesystemServer, stdioServer, useMcpHost } from '../../test-support/mcp-host-kit';

/**
 * The reference filesystem server, started confined (issue 29): it is told the workspace is its
 * root and believes it may write there and in the user's home; the sandbox decides otherwise.
 */
const host = useMcpHost();
const call = { signal: new AbortController().signal, timeoutMs: 15_000 };
const textOf = (content: unknown) => (content as { text: string }[]).map((part) => part.text).join('\n');

describe.runIf(confinementMode().confined)('server-filesystem in its sandbox', () => {
  it('reads the workspace, cannot write it unless granted, nor the home it was told it may', async () => {
    const { manager, workspace, userHome } = await host();
    await writeFile(join(workspace, 'notes.txt'), 'from the workspace\n');
    manager.sync([stdioServer('fs', [filesystemServer, workspace, userHome])]);
    await manager.settled();
    expect(manager.statuses()[0]).toMatchObject({ state: 'ready', confined: true });
    const read = await manager.call('fs', 'read_text_file', { path: join(workspace, 'notes.txt') }, call);
    expect(read.ok && textOf(read.value.content)).toContain('from the workspace');
    const inside = await manager.call('fs', 'write_file', { path: join(workspace, 'new.txt'), content: 'x' }, call);
    expect(inside.ok && inside.value.isError).toBe(true);
    const home = await manager.call('fs', 'write_file', { path: join(userHome, 'planted.txt'), content: 'x' }, call);
    expect(home.ok && home.value.isError === true).toBe(true);
    expect(await readdir(workspace)).toEqual(['notes.txt']);
    expect(await readdir(userHome)).toEqual([]);
  });

  it('writes the workspace once granted', async () => {
    const { manager, workspace } = await host();
    manager.sync([stdioServer('fs', [filesystemServer, workspace], { grants: { writeWorkspace: true, hosts: [] } })]);
    await manager.settled();
    const wrote = await manager.call(
      'fs',
      'write_file',
      { path: join(workspace, 'new.txt'), content: 'granted' },
      call,
    );
    expect(wrote.ok && wrote.value.isError !== true).toBe(true);
    expect(await readFile(join(workspace, 'new.txt'), 'utf8')).toBe('granted');
  });
});
