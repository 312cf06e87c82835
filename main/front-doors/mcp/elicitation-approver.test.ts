import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { hostQuestion } from '../../domain/mcp-servers/mcp-server-network';
import { elicitationApprover, elicitationMessage } from './elicitation-approver';

/**
 * An MCP server's host question over Familiar's own MCP mode (issue 29): said as such, with its own
 * two spans. (MCP mode starts no user servers today: this keeps the question right should it ask.)
 */
const question = hostQuestion(
  'github',
  { conversationId: 'c-1', toolCallId: 't-1', name: 'github__search' },
  { host: 'api.github.com', port: 443 },
);

/** Just what elicitationApprover reads of the SDK's Server: its client's capabilities and elicitInput. */
function clientAnswering(content: Record<string, string>) {
  const asked: unknown[] = [];
  const server = {
    getClientCapabilities: () => ({ elicitation: { form: {} } }),
    elicitInput: (params: unknown) => {
      asked.push(params);
      return Promise.resolve({ action: 'accept', content });
    },
  } as unknown as Server;
  return { approver: elicitationApprover(server, 1)!, asked };
}

describe('an MCP server’s host by elicitation', () => {
  it('names the server and the host', () => {
    expect(elicitationMessage(question)).toBe(
      'An MCP server Familiar runs asks for the network: The MCP server "github" wants to reach api.github.com:443',
    );
  });

  it('offers this request or always for the server; "always" comes back as allowForWorkspace', async () => {
    const { approver, asked } = clientAnswering({ allow: 'workspace' });
    expect(await approver(question, new AbortController().signal)).toEqual({
      approved: true,
      allowForConversation: false,
      allowForWorkspace: true,
    });
    expect(asked).toMatchObject([
      {
        requestedSchema: {
          properties: {
            allow: { oneOf: [{ const: 'once' }, { const: 'workspace', title: /^Always allow for this server/ }] },
          },
        },
      },
    ]);
  });
});
