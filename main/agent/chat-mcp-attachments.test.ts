import { describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { resolveMcpAttachments } from '../domain/mcp-servers/mcp-attachments';
import { kinds, useChatServiceKit } from '../test-support/chat-service-kit';
import { everythingServer, stdioServer, useMcpHost } from '../test-support/mcp-host-kit';

// A message with a resource (`@`) and a prompt (`/everything:args-prompt`) of the reference
// server-everything attached: read from the server as it is sent, given to the model (a scripted
// server on 127.0.0.1 speaking the real protocol) marked as the server's, kept in the transcript,
// sent again on the next turn, and named to provenance for the turn.

let server: ScriptedLlmServer;
const { setup } = useChatServiceKit(async () => (server = await startScriptedLlmServer()));
const host = useMcpHost();
const architecture = 'demo://resource/static/document/architecture.md';

async function withEverything() {
  const { manager } = await host();
  manager.sync([stdioServer('everything', [everythingServer, 'stdio'])]);
  await manager.settled();
  return setup(
    'openai-compatible',
    {},
    {
      mcpAttachments: (requests, options) => resolveMcpAttachments(manager, requests, options),
    },
  );
}

describe('MCP attachments on a message', () => {
  it('sends a picked resource and prompt to the model, marked untrusted and named, and keeps them', async () => {
    const { id, chat, events, begun, view } = await withEverything();
    server.enqueue(reply.text('Read it.'), reply.text('Still have it.'));
    const sent = await chat.send(
      id,
      'Summarize these.',
      [],
      [
        { kind: 'resource', server: 'everything', uri: architecture },
        { kind: 'prompt', server: 'everything', name: 'args-prompt', arguments: { city: 'Reykjavik' } },
      ],
    );
    expect(sent.ok).toBe(true);
    await chat.idle(id);
    expect(kinds(events)).toEqual(['turn-started', 'turn-finished']);

    const seen = JSON.stringify(server.requests[0]?.messages);
    expect(seen).toContain('Summarize these.');
    expect(seen).toContain('Everything Server – Architecture');
    expect(seen).toContain(
      `the resource ${architecture} of the MCP server \\"everything\\". It is the server's content (untrusted)`,
    );
    expect(seen).toContain('the prompt /everything:args-prompt of the MCP server \\"everything\\"');
    expect(seen).toContain('Reykjavik');
    expect(begun.at(-1)).toEqual([
      `resource ${architecture} of MCP server "everything"`,
      'prompt /everything:args-prompt of MCP server "everything"',
    ]);

    const [user] = await view();
    expect(user).toMatchObject({
      role: 'user',
      text: 'Summarize these.',
      attachments: [
        { kind: 'resource', server: 'everything', label: architecture },
        { kind: 'prompt', server: 'everything', label: '/everything:args-prompt' },
      ],
    });

    // The next turn's request still carries what was attached, from the transcript.
    await chat.send(id, 'And now?');
    await chat.idle(id);
    expect(JSON.stringify(server.requests[1]?.messages)).toContain('Everything Server – Architecture');
    expect(begun.at(-1)).toEqual([]);
  });

  it('sends nothing when a picked resource cannot be read', async () => {
    const { id, chat, events, view } = await withEverything();
    const sent = await chat.send(id, 'Look.', [], [{ kind: 'resource', server: 'everything', uri: 'demo://nope' }]);
    expect(sent.ok ? 'ok' : sent.error.code).toBe('mcp_request_failed');
    expect(events).toEqual([]);
    expect(await view()).toEqual([]);
    expect(server.requests).toEqual([]);
    // The conversation is not left claimed.
    server.enqueue(reply.text('Hello.'));
    expect((await chat.send(id, 'Hi')).ok).toBe(true);
    await chat.idle(id);
  });
});
