import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { API_KEY, kinds, textOf, useChatServiceKit } from '../test-support/chat-service-kit';
import { makePng } from '../test-support/media-fixtures';
import { matching } from '../test-support/tool-kit';

// A chat turn that goes through: a streamed answer, tool calls and their results sent back to the
// model, the context re-fitted between steps, the step limit. Stopped and failed turns have their own
// files (chat-service-interrupted.test.ts, chat-service-errors.test.ts); the setup is shared through
// main/test-support/chat-service-kit.ts.

let server: ScriptedLlmServer;
const { setup } = useChatServiceKit(async () => (server = await startScriptedLlmServer()));

describe.each(['openai-compatible', 'anthropic'] as const)('a turn over the %s protocol', (kind) => {
  it('streams a plain answer and keeps it in the transcript', async () => {
    const { id, chat, events, lastAssistant } = await setup(kind);
    server.enqueue(reply.text('Hello there, friend. How can I help?'));
    const sent = await chat.send(id, 'Hi!');
    expect(sent.ok).toBe(true);
    await chat.idle(id);

    expect(kinds(events)).toEqual(['turn-started', 'turn-finished']);
    expect(textOf(events)).toBe('Hello there, friend. How can I help?');
    expect(events[0]).toMatchObject({ type: 'turn-started', userMessage: { text: 'Hi!' }, retryOf: null });
    expect(events.at(-1)).toMatchObject({ type: 'turn-finished', finishReason: 'stop', steps: 1 });
    const finished = events.at(-1);
    expect(finished?.type === 'turn-finished' && finished.usage.outputTokens).toBeGreaterThan(0);
    expect(await lastAssistant()).toMatchObject({
      status: 'complete',
      parts: [{ type: 'text', text: 'Hello there, friend. How can I help?' }],
    });

    const [request] = server.requests;
    expect(request?.protocol).toBe(kind === 'anthropic' ? 'anthropic' : 'openai');
    expect(request?.system).toMatch(/^You are the test persona/);
    expect(request?.toolNames).toEqual(['read_note', 'wait_for_stop']);
    expect(request?.body['model']).toBe('scripted-model');
    const presented = kind === 'anthropic' ? request?.headers['x-api-key'] : request?.headers['authorization'];
    expect(presented).toBe(kind === 'anthropic' ? API_KEY : `Bearer ${API_KEY}`);
  });

  it('runs a two-step turn: the tool reads a real file and its result goes back to the model', async () => {
    const { home, id, chat, events, lastAssistant } = await setup(kind);
    await writeFile(join(home, 'notes.md'), 'buy milk\ncall mum\n');
    server.enqueue(reply.toolCall('read_note', { path: 'notes.md' }, 'Let me check your notes.'), (request) =>
      reply.text(
        JSON.stringify(request.messages).includes('buy milk')
          ? 'Your notes say: buy milk, call mum.'
          : 'NO RESULT SEEN',
      ),
    );
    await chat.send(id, 'What is in my notes?');
    await chat.idle(id);

    expect(kinds(events)).toEqual(['turn-started', 'tool-call', 'tool-result', 'turn-finished']);
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      name: 'read_note',
      args: { path: 'notes.md' },
    });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      name: 'read_note',
      result: { ok: true, value: 'buy milk\ncall mum\n', summary: 'buy milk (3 lines)' },
    });
    expect(textOf(events)).toBe('Let me check your notes.Your notes say: buy milk, call mum.');
    expect(events.at(-1)).toMatchObject({ type: 'turn-finished', steps: 2 });
    expect(server.requests).toHaveLength(2);
    expect(await lastAssistant()).toMatchObject({
      status: 'complete',
      parts: [
        { type: 'text', text: 'Let me check your notes.' },
        { type: 'tool', name: 'read_note', result: { ok: true } },
        { type: 'text', text: 'Your notes say: buy milk, call mum.' },
      ],
    });

    // The next turn replays the whole exchange, tool call and result included, from the transcript.
    server.enqueue(reply.text('You are welcome.'));
    await chat.send(id, 'Thanks');
    await chat.idle(id);
    const replay = JSON.stringify(server.requests[2]?.messages);
    expect(replay).toContain('buy milk');
    expect(replay).toContain('What is in my notes?');
  });

  it('gives a failing tool and malformed arguments back to the model as typed errors, and goes on', async () => {
    const { id, chat, events } = await setup(kind);
    server.enqueue(
      {
        kind: 'stream',
        parts: [
          { toolCall: { name: 'read_note', args: { path: 'missing.md' } } },
          { toolCall: { name: 'read_note', args: null, rawArguments: '{"path": "unterminated' } },
        ],
      },
      reply.text('That note does not exist.'),
    );
    await chat.send(id, 'Read missing.md');
    await chat.idle(id);

    const results = events.filter((event) => event.type === 'tool-result');
    // The malformed call is refused while parsing, before the first call has finished running.
    expect(results.map((event) => event.result.code).sort()).toEqual(['file_not_found', 'invalid_arguments']);
    expect(events.at(-1)).toMatchObject({ type: 'turn-finished' });
    expect(JSON.stringify(server.requests[1]?.messages)).toContain('file_not_found');
  });
});

describe('a picture a tool returns', () => {
  /** A turn in which the model reads a 12×8 shot.png with a tool, then says `answer`. */
  async function readPicture(provider: Parameters<typeof setup>[0], answer: string) {
    const { home, id, chat } = await setup(provider);
    const png = makePng(12, 8);
    await writeFile(join(home, 'shot.png'), png);
    server.enqueue(reply.toolCall('read_note', { path: 'shot.png' }), reply.text(answer));
    await chat.send(id, 'What is in shot.png?');
    await chat.idle(id);
    return { id, chat, png };
  }

  it('reaches an Anthropic model as an image block in the tool result, live and replayed', async () => {
    const { id, chat, png } = await readPicture('anthropic', 'A gradient.');
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } };
    const toolResultOf = (request: number) =>
      (server.requests[request]?.messages as { content: unknown }[] | undefined)
        ?.flatMap((message) => (Array.isArray(message.content) ? (message.content as { type: string }[]) : []))
        .find((part) => part.type === 'tool_result');
    expect(toolResultOf(1)).toMatchObject({
      content: [{ type: 'text', text: matching(/"width":12,"height":8/) }, image],
    });
    // Once, as the picture: not also as text in the facts.
    expect(JSON.stringify(toolResultOf(1)).split(png.toString('base64'))).toHaveLength(2);
    // The next turn rebuilds the history from the transcript: the picture is still a picture.
    server.enqueue(reply.text('Still a gradient.'));
    await chat.send(id, 'And now?');
    await chat.idle(id);
    expect(toolResultOf(2)).toMatchObject({ content: [{ type: 'text' }, image] });
  });

  it('reaches a Chat Completions model as its facts and a sentence, never as base64 text', async () => {
    const { png } = await readPicture('openai-compatible', 'I cannot see it.');
    const sent = JSON.stringify(server.requests[1]?.messages);
    expect(sent).toContain('\\"width\\":12');
    expect(sent).toContain('The picture itself is not shown to you');
    expect(sent).not.toContain(png.toString('base64').slice(0, 40));
  });
});

describe('turn management', () => {
  it('speaks the OpenAI and Ollama kinds through the same Chat Completions protocol', async () => {
    for (const kind of ['openai', 'ollama'] as const) {
      const { id, chat, events } = await setup(kind);
      server.enqueue(reply.text(`hello from ${kind}`));
      await chat.send(id, 'Hi');
      await chat.idle(id);
      expect(textOf(events)).toBe(`hello from ${kind}`);
      expect(server.requests.at(-1)?.path).toBe('/v1/chat/completions');
    }
  });

  it('re-fits the context between steps: an old tool output is elided when the next would overflow', async () => {
    const { home, id, chat, events } = await setup('openai-compatible', { contextWindow: 8_192 });
    const big = 'line of a big file\n'.repeat(850); // ~16 KB, ~4,000 tokens
    await writeFile(join(home, 'big.md'), big);
    server.enqueue(
      reply.toolCall('read_note', { path: 'big.md' }),
      reply.toolCall('read_note', { path: 'big.md' }),
      reply.text('Read it twice.'),
    );
    await chat.send(id, 'Read big.md twice');
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({ type: 'turn-finished', steps: 3 });
    const second = JSON.stringify(server.requests[1]?.messages);
    const third = JSON.stringify(server.requests[2]?.messages);
    expect(second).not.toContain('Elided to fit the context window');
    expect(third).toContain('Elided to fit the context window: this read_note output');
    // The latest output is still there, once.
    expect(third.split('line of a big file').length - 1).toBe(850);
  });

  it('ends a tool loop at the step limit and says so', async () => {
    const { home, id, chat, events } = await setup('openai-compatible', { maxSteps: 2 });
    await writeFile(join(home, 'a.md'), 'a');
    server.enqueue(reply.toolCall('read_note', { path: 'a.md' }), reply.toolCall('read_note', { path: 'a.md' }));
    await chat.send(id, 'Loop');
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({ type: 'turn-finished', finishReason: 'max-steps', steps: 2 });
    expect(server.pending()).toBe(0);
  });
});
