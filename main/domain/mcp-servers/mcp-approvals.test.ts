import { describe, expect, it } from 'vitest';
import { mcpServerConfigSchema } from '../../../shared/mcp-servers';
import type { McpAlwaysAllowed } from '../../../shared/mcp-servers';
import { createMcpApprovals } from './mcp-approvals';

const server = mcpServerConfigSchema.parse({
  id: 'files',
  name: 'files',
  transport: 'stdio',
  command: 'files-server',
  allowReadOnly: true,
});
const write = { server: 'files', tool: 'write', readOnly: false };
const read = { server: 'files', tool: 'read', readOnly: true };

function approvals(unconfined: boolean) {
  let kept: McpAlwaysAllowed[] = [];
  return createMcpApprovals({
    servers: () => [server],
    alwaysAllowed: () => kept,
    saveAlwaysAllowed: (entries) => {
      kept = entries;
      return Promise.resolve();
    },
    runsUnconfined: () => unconfined,
  });
}

describe('MCP server tool approvals', () => {
  it('hold for the conversation, always, and for read-only tools by the server switch', async () => {
    const confined = approvals(false);
    expect(confined.allowed('c1', write)).toBe(false);
    expect(confined.allowed('c1', read)).toBe(true);
    confined.allowForConversation('c1', write);
    expect(confined.allowed('c1', write)).toBe(true);
    expect(confined.allowed('c2', write)).toBe(false);
    await confined.allowAlways(write);
    expect(confined.allowed('c2', write)).toBe(true);
  });

  it('hold for nothing while the server runs unconfined: every call asks, as an unconfined command does', async () => {
    const unconfined = approvals(true);
    unconfined.allowForConversation('c1', write);
    await unconfined.allowAlways(write);
    expect(unconfined.allowed('c1', write)).toBe(false);
    expect(unconfined.allowed('c1', read)).toBe(false);
  });
});
