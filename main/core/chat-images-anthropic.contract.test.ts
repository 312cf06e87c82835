import { afterEach, describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { useContractCores } from '../test-support/contract-core';
import { makePng } from '../test-support/media-fixtures';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * A picture the user attaches reaches an Anthropic Messages model as Anthropic's own image block,
 * through the real core, the real AI SDK client and a scripted server speaking the protocol.
 */
const tempDir = useTempDirs();
const startCore = useContractCores();
let server: ScriptedLlmServer;
afterEach(() => server.close());

type Block = { type: string; text?: string; source?: unknown };
const userBlocks = (messages: readonly unknown[] | undefined): Block[] =>
  ((messages ?? []) as { role: string; content: unknown }[])
    .filter((message) => message.role === 'user' && Array.isArray(message.content))
    .flatMap((message) => message.content as Block[]);

describe('a picture in the chat over the Anthropic protocol', () => {
  it('is sent as an image block with its media type and base64 data, after the words, and again on the next turn', async () => {
    server = await startScriptedLlmServer();
    const run = await startCore({ home: await tempDir(), llmUrl: server.url, kind: 'anthropic' });
    const png = makePng(16, 9);
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } };
    server.enqueue(reply.text('A small picture.'), reply.text('Still the picture.'));
    const { id } = await run.call<{ id: string }>('conversations.create', {});
    await run.call('chat.send', {
      conversationId: id,
      text: 'What is this?',
      images: [{ name: 'shot.png', mime: 'image/png', data: png.toString('base64') }],
    });
    expect(await run.turnEnd()).toMatchObject({ type: 'turn-finished' });
    expect(server.requests[0]?.protocol).toBe('anthropic');
    expect(userBlocks(server.requests[0]?.messages)).toEqual([{ type: 'text', text: 'What is this?' }, image]);

    // The next turn rebuilds the history from the transcript and the stored picture: still an image block.
    run.chatEvents.length = 0;
    await run.call('chat.send', { conversationId: id, text: 'And now?' });
    await run.turnEnd();
    expect(userBlocks(server.requests[1]?.messages)).toContainEqual(image);
  });
});
