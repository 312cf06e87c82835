import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from '../../../shared/mcp-attachments';
import { everythingServer, stdioServer, useMcpHost } from '../../test-support/mcp-host-kit';
import { attachmentForModel, attachmentSources, resolveMcpAttachments } from './mcp-attachments';

/**
 * Resources and prompts of a server nobody here wrote (the reference server-everything, over stdio):
 * listed for the composer's menus, read and got when a message is sent, marked as the server's.
 */
const host = useMcpHost();
const request = { timeoutMs: 10_000 };

async function everything() {
  const { manager } = await host();
  manager.sync([stdioServer('everything', [everythingServer, 'stdio'])]);
  await manager.settled();
  return manager;
}

describe('MCP resources and prompts', () => {
  it('lists the ready servers’ resources, resource templates and prompts', async () => {
    const manager = await everything();
    const catalog = await manager.catalog(request);
    expect(catalog.errors).toEqual([]);
    expect(catalog.resources).toContainEqual(
      expect.objectContaining({
        server: 'everything',
        uri: 'demo://resource/static/document/architecture.md',
        name: 'architecture.md',
        mimeType: 'text/markdown',
      }),
    );
    const template = catalog.templates.find((entry) => entry.name === 'Dynamic Text Resource');
    expect(template).toMatchObject({ server: 'everything', uriTemplate: 'demo://resource/dynamic/text/{resourceId}' });
    expect(templateVariables(template!.uriTemplate)).toEqual(['resourceId']);
    expect(catalog.prompts.find((prompt) => prompt.name === 'args-prompt')).toMatchObject({
      server: 'everything',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    });
  });

  it('reads picked resources and gets a picked prompt with its arguments, each marked as the server’s', async () => {
    const manager = await everything();
    const resolved = await resolveMcpAttachments(
      manager,
      [
        { kind: 'resource', server: 'everything', uri: 'demo://resource/static/document/architecture.md' },
        {
          kind: 'resource',
          server: 'everything',
          uri: expandTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '7' }),
        },
        { kind: 'prompt', server: 'everything', name: 'args-prompt', arguments: { city: 'Reykjavik' } },
      ],
      { vision: false },
    );
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    const [document, dynamic, prompt] = resolved.value.attachments;
    expect(document).toMatchObject({
      kind: 'resource',
      server: 'everything',
      label: 'demo://resource/static/document/architecture.md',
    });
    expect(document!.text).toContain('Everything Server – Architecture');
    expect(dynamic).toMatchObject({ kind: 'resource', label: 'demo://resource/dynamic/text/7' });
    expect(dynamic!.text).toMatch(/7/);
    expect(prompt).toMatchObject({ kind: 'prompt', server: 'everything', label: '/everything:args-prompt' });
    expect(prompt!.text).toMatch(/^\[user\]\n.*Reykjavik/);
    expect(resolved.value.images).toEqual([]);
    expect(attachmentForModel(document!)).toMatch(
      /^\[The user attached the resource demo:\/\/resource\/static\/document\/architecture\.md of the MCP server "everything"\. It is the server's content \(untrusted\)/,
    );
    expect(attachmentSources(resolved.value.attachments)).toEqual([
      'resource demo://resource/static/document/architecture.md of MCP server "everything"',
      'resource demo://resource/dynamic/text/7 of MCP server "everything"',
      'prompt /everything:args-prompt of MCP server "everything"',
    ]);
  });

  it('names a binary resource instead of inlining it, and refuses what cannot be read with a typed error', async () => {
    const manager = await everything();
    const blob = await resolveMcpAttachments(
      manager,
      [{ kind: 'resource', server: 'everything', uri: 'demo://resource/dynamic/blob/3' }],
      { vision: true },
    );
    expect(blob.ok && blob.value.attachments[0]!.text).toMatch(/^\[\S+ content, \d+ bytes, not shown\]$/);

    const missing = await resolveMcpAttachments(
      manager,
      [{ kind: 'resource', server: 'everything', uri: 'demo://resource/nothing/here' }],
      { vision: false },
    );
    expect(missing.ok ? 'ok' : missing.error.code).toBe('mcp_request_failed');
    const gone = await resolveMcpAttachments(
      manager,
      [{ kind: 'prompt', server: 'elsewhere', name: 'simple-prompt', arguments: {} }],
      { vision: false },
    );
    expect(gone.ok ? 'ok' : gone.error.code).toBe('mcp_server_unavailable');
  });
});
