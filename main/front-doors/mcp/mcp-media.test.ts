import { realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultToolLimits } from '../../tools/kit/tool-limits';
import { makePdf, makePng } from '../../test-support/media-fixtures';
import { useMcpTestSessions } from '../../test-support/mcp-session-kit';
import { useTempDirs } from '../../test-support/temp-dir';

// read_file on pictures and PDFs as an MCP client gets them (the official SDK client, which also
// checks every structuredContent against the tool's outputSchema).

const tempDir = useTempDirs();
const startSession = useMcpTestSessions();

async function connect() {
  const workspace = await realpath(await tempDir('mcp-media-'));
  const session = await startSession({ home: await tempDir(), workspace });
  return { ...session, workspace, uri: (relPath: string) => pathToFileURL(join(workspace, relPath)).href };
}

describe('read_file over MCP', () => {
  it('answers a PNG as image content, with its facts (not its bytes) as structuredContent and text', async () => {
    const { client, workspace } = await connect();
    const png = makePng(64, 48);
    await writeFile(join(workspace, 'shot.png'), png);
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'shot.png' } });
    const facts = { kind: 'image', path: 'shot.png', mime: 'image/png', bytes: png.length, width: 64, height: 48 };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(facts);
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify(facts) },
      { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
    ]);
  });

  it('refuses a picture over the image cap with file_too_large', async () => {
    const { client, workspace } = await connect();
    await writeFile(join(workspace, 'huge.png'), makePng(8, 8, defaultToolLimits.maxImageBytes));
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'huge.png' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'file_too_large' } });
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^file_too_large: /) as unknown }]);
  });

  it('reads a 3-page PDF by pages, the scanned page marked', async () => {
    const { client, workspace } = await connect();
    await writeFile(join(workspace, 'r.pdf'), makePdf([['one'], null, ['three']]));
    const all = await client.callTool({ name: 'read_file', arguments: { path: 'r.pdf' } });
    expect(all.structuredContent).toMatchObject({
      kind: 'pdf',
      pages: 3,
      start_page: 1,
      end_page: 3,
      text: '[page 1]\none\n\n[page 2: no text — a scanned image, or blank]\n\n[page 3]\nthree',
      pages_without_text: [2],
    });
    const last = await client.callTool({ name: 'read_file', arguments: { path: 'r.pdf', start_page: 2, end_page: 3 } });
    expect(last.structuredContent).toMatchObject({ start_page: 2, end_page: 3, pages_without_text: [2] });
  });

  it('serves a picture resource as a blob and a PDF resource as its text', async () => {
    const { client, workspace, uri } = await connect();
    const png = makePng(3, 2);
    await writeFile(join(workspace, 'dot.png'), png);
    await writeFile(join(workspace, 'r.pdf'), makePdf([['hello']]));
    const listed = (await client.listResources()).resources;
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: uri('dot.png'), mimeType: 'image/png' }),
        expect.objectContaining({ uri: uri('r.pdf'), mimeType: 'application/pdf' }),
      ]),
    );
    expect((await client.readResource({ uri: uri('dot.png') })).contents).toEqual([
      { uri: uri('dot.png'), mimeType: 'image/png', blob: png.toString('base64') },
    ]);
    expect((await client.readResource({ uri: uri('r.pdf') })).contents).toEqual([
      { uri: uri('r.pdf'), mimeType: 'text/plain', text: '[page 1]\nhello' },
    ]);
  });
});
