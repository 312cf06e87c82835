import { describe, expect, it } from 'vitest';
import { importMcpServers, mcpServerConfigSchema } from './mcp-servers';
import { applySettingsPatch, defaultSettings } from './settings';

describe('importing other hosts’ MCP server files', () => {
  it('reads Claude Desktop / Cursor mcpServers, stdio and http, granting nothing', () => {
    const imported = importMcpServers(
      JSON.stringify({
        mcpServers: {
          filesystem: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
            env: { A: '1' },
          },
          'remote api': { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
          off: { command: 'x', disabled: true },
        },
      }),
    );
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.servers).toEqual([
      {
        id: 'filesystem',
        enabled: true,
        allowReadOnly: false,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { A: '1' },
        grants: { writeWorkspace: false, hosts: [] },
      },
      {
        id: 'remote-api',
        enabled: true,
        allowReadOnly: false,
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer x' },
      },
      expect.objectContaining({ id: 'off', enabled: false }),
    ]);
    expect(imported.skipped).toEqual([]);
  });

  it("reads VS Code's mcp.json servers and says what it skipped", () => {
    const imported = importMcpServers(
      JSON.stringify({
        servers: {
          everything: { type: 'stdio', command: 'node', args: ['server.js'] },
          old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
          nothing: { type: 'stdio' },
          a__b: { command: 'x' },
        },
      }),
    );
    if (!imported.ok) throw new Error(imported.message);
    expect(imported.servers.map((server) => server.id)).toEqual(['everything', 'a_b']);
    expect(imported.skipped.map((entry) => entry.name)).toEqual(['old', 'nothing']);
  });

  it('refuses what is not JSON or not a map of servers', () => {
    expect(importMcpServers('{').ok).toBe(false);
    expect(importMcpServers('[1]').ok).toBe(false);
    expect(importMcpServers('{"mcpServers": [1]}').ok).toBe(false);
  });

  it('ids cannot hold the server__tool separator, and settings keep servers through a patch', () => {
    expect(mcpServerConfigSchema.safeParse({ id: 'a__b', transport: 'stdio', command: 'x' }).success).toBe(false);
    const next = applySettingsPatch(defaultSettings(), {
      mcp: { servers: [mcpServerConfigSchema.parse({ id: 'demo', transport: 'stdio', command: 'node' })] },
    });
    expect(next.mcp.servers.map((server) => server.id)).toEqual(['demo']);
    expect(next.mcp.alwaysAllowed).toEqual([]);
    expect(
      applySettingsPatch(next, { mcp: { alwaysAllowed: [{ server: 'demo', tool: 'echo' }] } }).mcp.servers,
    ).toHaveLength(1);
  });
});
