import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';

const tempDir = useTempDirs();
const startMcpTestSession = useMcpTestSessions();

async function start() {
  const workspace = await realpath(await tempDir('mcp-res-'));
  await writeFile(join(workspace, 'notes.md'), '# Notes\nfirst line\n');
  await writeFile(join(workspace, '.env'), 'API_KEY=secret\n');
  const session = await startMcpTestSession({ home: await tempDir(), workspace });
  const uri = (relPath: string) => pathToFileURL(join(workspace, relPath)).href;
  return { ...session, workspace, uri };
}

/** The stable Familiar code a refused resources request carries in its JSON-RPC error data. */
async function refusalCode(request: Promise<unknown>): Promise<string> {
  const error: unknown = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, 'the request was not refused').toBeInstanceOf(McpError);
  return ((error as McpError).data as { code: string }).code;
}

const persona = (name: string) => `familiar://persona/${name}`;

describe('MCP resources', () => {
  it('lists the persona files, USER.md and MEMORY.md only while memory is on, and reads them', async () => {
    const { client, core } = await start();
    const uris = async () => (await client.listResources()).resources.map((resource) => resource.uri);
    expect(await uris()).toEqual(
      expect.arrayContaining([persona('SOUL.md'), persona('USER.md'), persona('MEMORY.md')]),
    );
    const listChanged = new Promise<void>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()),
    );
    await core.settings.update({ memory: { enabled: false } });
    await listChanged;
    const listed = await uris();
    expect(listed).toContain(persona('SOUL.md'));
    expect(listed).not.toContain(persona('USER.md'));
    expect(listed).not.toContain(persona('MEMORY.md'));
    expect(await refusalCode(client.readResource({ uri: persona('USER.md') }))).toBe('permission_denied');
    await core.assistant.history.writeByUser('SOUL.md', 'You are Familiar.\n', 'test');
    const soul = await client.readResource({ uri: persona('SOUL.md') });
    expect(soul.contents).toEqual([{ uri: persona('SOUL.md'), mimeType: 'text/markdown', text: 'You are Familiar.' }]);
  });

  it('lists and reads workspace files by file:// URI through the sandbox, refusing outside and denied files', async () => {
    const { client, uri } = await start();
    const { resources } = await client.listResources();
    expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: uri('notes.md') })]));
    // Hidden and denied files are not offered.
    expect(resources.map((resource) => resource.uri)).not.toContain(uri('.env'));
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'file://{+path}' }),
    ]);
    const read = await client.readResource({ uri: uri('notes.md') });
    expect(read.contents).toEqual([{ uri: uri('notes.md'), mimeType: 'text/markdown', text: '# Notes\nfirst line' }]);

    const outside = await realpath(await tempDir('mcp-outside-'));
    await writeFile(join(outside, 'secret.md'), 'not yours\n');
    expect(await refusalCode(client.readResource({ uri: pathToFileURL(join(outside, 'secret.md')).href }))).toBe(
      'invalid_path',
    );
    expect(await refusalCode(client.readResource({ uri: `${uri('')}/../secret.md` }))).toBe('invalid_path');
    expect(await refusalCode(client.readResource({ uri: uri('.env') }))).toBe('permission_denied');
    expect(await refusalCode(client.readResource({ uri: uri('missing.md') }))).toBe('file_not_found');
    expect(await refusalCode(client.subscribeResource({ uri: uri('.env') }))).toBe('permission_denied');
  });

  it('sends notifications/resources/updated after a subscribed file changes, on disk or through Familiar', async () => {
    const { client, core, workspace, uri } = await start();
    const updated: string[] = [];
    let heard: (uri: string) => void = () => undefined;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
      heard(notification.params.uri);
    });
    const next = (expected: string) =>
      new Promise<void>((resolve) => {
        heard = (got) => {
          if (got === expected) resolve();
        };
      });

    await client.subscribeResource({ uri: uri('notes.md') });
    const notesChanged = next(uri('notes.md'));
    await writeFile(join(workspace, 'notes.md'), '# Notes\nsecond line\n');
    await notesChanged;

    await client.subscribeResource({ uri: persona('SOUL.md') });
    const soulChanged = next(persona('SOUL.md'));
    await core.assistant.history.writeByUser('SOUL.md', 'You are terse.\n', 'test');
    await soulChanged;

    await client.unsubscribeResource({ uri: uri('notes.md') });
    const count = updated.filter((got) => got === uri('notes.md')).length;
    await writeFile(join(workspace, 'other.md'), 'a file nobody subscribed to\n');
    const soulAgain = next(persona('SOUL.md'));
    await core.assistant.history.writeByUser('SOUL.md', 'You are kind.\n', 'test');
    await soulAgain;
    expect(updated.filter((got) => got === uri('notes.md'))).toHaveLength(count);
    expect(updated).not.toContain(uri('other.md'));
  });
});
