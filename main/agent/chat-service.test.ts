import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ChatEvent } from '../../shared/ipc/chat';
import type { AssistantMessage } from '../../shared/ipc/conversations';
import { err, ok } from '../../shared/result';
import type { ProviderKind, ProviderSettings } from '../../shared/settings';
import { openConversationStore } from '../domain/conversations/conversation-store';
import { toChatMessages } from '../domain/conversations/transcript-view';
import { createStderrLogger } from '../platform/logging/logger';
import { routeAiSdkWarnings } from '../domain/providers/sdk-warnings';
import { apiKeySecret, openSecretStore } from '../platform/secrets/secret-store';
import { useTempDirs } from '../test-support/temp-dir';
import { createChatService } from './chat-service';
import type { ToolExecutor } from '../tool-calls/tool-executor';

const tempDir = useTempDirs();
const quiet = createStderrLogger('test', () => undefined);
const API_KEY = 'sk-test-0123456789abcdef';

let server: ScriptedLlmServer;
beforeEach(async () => {
  routeAiSdkWarnings(quiet);
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  await server.close();
});

/**
 * A small real executor: `read_note` reads a real file from a temp folder, `wait_for_stop` blocks
 * until the turn is stopped (a tool waiting on an approval behaves the same way).
 */
function notesExecutor(dir: string) {
  const cancelled: string[] = [];
  const readInput = z.object({ path: z.string().min(1) }).strict();
  const executor: ToolExecutor = {
    list: () => [
      { name: 'read_note', description: 'Reads a note by its file name.', input: readInput },
      { name: 'wait_for_stop', description: 'Waits until the user stops the turn.', input: z.object({}) },
    ],
    systemPrompt: () => Promise.resolve(`You are the test persona. Notes live in ${dir}.`),
    async execute(call, signal) {
      if (call.name === 'wait_for_stop') {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return err('aborted', 'stopped');
      }
      const args = readInput.safeParse(call.args);
      if (!args.success) return err('invalid_arguments', args.error.message);
      try {
        return ok(await readFile(join(dir, args.data.path), 'utf8'));
      } catch {
        return err('file_not_found', `${args.data.path} does not exist.`);
      }
    },
    beginTurn: () => undefined,
    cancelPending: (_conversationId, reason) => void cancelled.push(reason),
  };
  return { executor, cancelled };
}

async function setup(kind: ProviderKind, overrides: Partial<ProviderSettings> = {}) {
  const home = await tempDir();
  const conversations = await openConversationStore({
    conversations: join(home, 'conversations'),
    trash: join(home, 'trash'),
  });
  const secrets = await openSecretStore(join(home, 'secrets.json'), undefined, quiet);
  await secrets.set(apiKeySecret(kind), API_KEY);
  const settings: ProviderSettings = {
    kind,
    model: 'scripted-model',
    baseUrl: `${server.url}/v1`,
    maxSteps: 5,
    contextWindow: 32_000,
    ...overrides,
  };
  const events: ChatEvent[] = [];
  const { executor, cancelled } = notesExecutor(home);
  const chat = createChatService({
    conversations,
    provider: () => settings,
    secrets,
    executor,
    emit: (event) => events.push(event),
    logger: quiet,
  });
  const created = await conversations.create();
  if (!created.ok) throw new Error(created.error.message);
  const { id } = created.value;
  const view = async () => {
    const loaded = await conversations.load(id);
    if (!loaded.ok) throw new Error(loaded.error.message);
    return toChatMessages(loaded.value.folded, chat.runningTurnId(id));
  };
  const lastAssistant = async () =>
    (await view()).filter((message) => message.role === 'assistant').at(-1) as AssistantMessage;
  return { home, id, chat, conversations, events, cancelled, view, lastAssistant };
}

const textOf = (events: readonly ChatEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
const kinds = (events: readonly ChatEvent[]) =>
  events.filter((event) => event.type !== 'text-delta').map((event) => event.type);

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

  it('stops mid-stream: the request is aborted and the partial reply kept, marked stopped', async () => {
    const { id, chat, events, cancelled, lastAssistant } = await setup(kind);
    const full = 'word '.repeat(400);
    server.enqueue(reply.text(full, { chunkDelayMs: 10 }));
    await chat.send(id, 'Write a lot');
    await vi.waitFor(() => expect(textOf(events).length).toBeGreaterThan(20), { timeout: 5_000 });
    expect(chat.anyRunning()).toBe(true);

    expect(await chat.stop(id)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'turn-stopped', reason: 'Stopped by the user.' });
    expect(cancelled).toEqual(['Stopped by the user.']);
    expect(chat.runningTurnId(id)).toBeNull();
    expect(chat.anyRunning()).toBe(false);
    await server.requests[0]?.done;
    expect(server.requests[0]?.closedEarly).toBe(true);

    const stopped = await lastAssistant();
    expect(stopped.status).toBe('stopped');
    const kept = stopped.parts[0]?.type === 'text' ? stopped.parts[0].text : '';
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(full.length);
    expect(full.startsWith(kept)).toBe(true);
    expect(await chat.stop(id)).toBe(false);
  });

  it('stops while a tool waits: pending approvals are cancelled and the call is answered as aborted', async () => {
    const { id, chat, events, cancelled, lastAssistant } = await setup(kind);
    server.enqueue(reply.toolCall('wait_for_stop', {}));
    await chat.send(id, 'Wait for me');
    await vi.waitFor(() => expect(kinds(events)).toContain('tool-call'), { timeout: 5_000 });
    await chat.stop(id);

    expect(cancelled).toHaveLength(1);
    expect(kinds(events)).toEqual(['turn-started', 'tool-call', 'tool-result', 'turn-stopped']);
    expect(await lastAssistant()).toMatchObject({
      status: 'stopped',
      parts: [{ type: 'tool', name: 'wait_for_stop', result: { ok: false, code: 'aborted' } }],
    });
  });

  it('reports a rejected key (401) as auth_failed, without echoing the key', async () => {
    const { id, chat, events, lastAssistant } = await setup(kind);
    server.enqueue(reply.httpError(401, `Incorrect API key provided: ${API_KEY}.`));
    await chat.send(id, 'Hi');
    await chat.idle(id);

    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'turn-error', error: { code: 'auth_failed', retryable: false, status: 401 } });
    expect(JSON.stringify(events)).not.toContain(API_KEY);
    expect(JSON.stringify(events)).not.toContain('0123456789abcdef');
    expect(await lastAssistant()).toMatchObject({ status: 'error', error: { code: 'auth_failed' } });
  });

  it('reports a rate limit (429) with its Retry-After, then retries the same message', async () => {
    const { id, chat, events, view } = await setup(kind);
    server.enqueue(reply.httpError(429, 'Slow down.', 7));
    await chat.send(id, 'Tell me a joke');
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({
      type: 'turn-error',
      error: { code: 'provider_rate_limited', retryable: true, retryAfterSeconds: 7 },
    });

    server.enqueue(reply.text('Why did the scripted server cross the road?'));
    const retried = await chat.retry(id);
    if (!retried.ok) throw new Error(retried.error.message);
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({ type: 'turn-finished', turnId: retried.value.turnId });
    const started = events.filter((event) => event.type === 'turn-started');
    expect(started.at(-1)).toMatchObject({ userMessage: null, retryOf: events[0]?.turnId });
    // The retry asks the same question once, not twice.
    expect(JSON.stringify(server.requests[1]?.messages).split('Tell me a joke')).toHaveLength(2);
    expect((await view()).map((message) => (message.role === 'user' ? 'user' : message.status))).toEqual([
      'user',
      'error',
      'complete',
    ]);
    expect(await chat.retry(id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('reports an unknown model (404) as model_not_found', async () => {
    const { id, chat, events } = await setup(kind);
    server.enqueue(reply.httpError(404, 'The model `scripted-model` does not exist.'));
    await chat.send(id, 'Hi');
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({ type: 'turn-error', error: { code: 'model_not_found', retryable: false } });
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

  it('refuses a second message while a turn runs, and a turn without a provider', async () => {
    const { id, chat } = await setup('openai-compatible');
    server.enqueue(reply.text('slow '.repeat(100), { chunkDelayMs: 5 }));
    await chat.send(id, 'First');
    expect(await chat.send(id, 'Second')).toMatchObject({ ok: false, error: { code: 'turn_in_progress' } });
    await chat.stop(id);

    const home = await tempDir();
    const conversations = await openConversationStore({ conversations: join(home, 'c'), trash: join(home, 't') });
    const unconfigured = createChatService({
      conversations,
      provider: () => null,
      secrets: await openSecretStore(join(home, 'secrets.json'), undefined, quiet),
      executor: notesExecutor(home).executor,
      emit: () => undefined,
      logger: quiet,
    });
    const created = await conversations.create();
    if (!created.ok) throw new Error(created.error.message);
    const other = created.value.id;
    expect(await unconfigured.send(other, 'Hi')).toMatchObject({
      ok: false,
      error: { code: 'provider_not_configured' },
    });
    // A refused send leaves the conversation free (and empty).
    expect(unconfigured.runningTurnId(other)).toBeNull();
    const loaded = await conversations.load(other);
    expect(loaded.ok && loaded.value.folded.exchanges).toEqual([]);
  });

  it('after a crash mid-turn: the torn line is skipped, the turn shows as interrupted, and retry answers it', async () => {
    const { home, id, chat, conversations, lastAssistant } = await setup('openai-compatible');
    // What a crash leaves: the user message and the turn's start are durable, the turn never ended,
    // and the process died while writing a record.
    await conversations.append(
      id,
      [
        { type: 'user', messageId: 'm0000000-crash', text: 'Are you still there?' },
        { type: 'turn-start', turnId: 't0000000-crash', userMessageId: 'm0000000-crash', retryOf: null },
        { type: 'text', turnId: 't0000000-crash', step: 0, text: 'Yes, I' },
      ],
      { sync: true },
    );
    // A synced append has already let go of the file, so it can be torn as a crash would leave it.
    const file = join(home, 'conversations', `${id}.jsonl`);
    await writeFile(file, `${await readFile(file, 'utf8')}{"v":1,"at":"2026-11-23T00:00:00.000Z","type":"text","tur`);

    const reopened = await openConversationStore({
      conversations: join(home, 'conversations'),
      trash: join(home, 'trash'),
    });
    const loaded = await reopened.load(id);
    expect(loaded.ok && loaded.value.skippedLines).toBe(1);
    expect(await lastAssistant()).toMatchObject({ status: 'interrupted', parts: [{ type: 'text', text: 'Yes, I' }] });

    server.enqueue(reply.text('Yes, I am here.'));
    const retried = await chat.retry(id);
    expect(retried.ok).toBe(true);
    await chat.idle(id);
    expect(await lastAssistant()).toMatchObject({ status: 'complete', retryOf: 't0000000-crash' });
    // The interrupted text is superseded: the model is asked the question again, cleanly.
    expect(server.requests[0]?.messages).toEqual([
      { role: 'system', content: expect.any(String) as unknown },
      { role: 'user', content: 'Are you still there?' },
    ]);
    const after = await reopened.load(id);
    expect(after.ok && after.value.skippedLines).toBe(0);
  });

  it('reports an unreachable server as network_error', async () => {
    const closed = await startScriptedLlmServer();
    await closed.close();
    const { id, chat, events } = await setup('openai-compatible', { baseUrl: `${closed.url}/v1` });
    await chat.send(id, 'Hi');
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({ type: 'turn-error', error: { code: 'network_error', retryable: true } });
  });

  it('refuses a message too long for the context window before calling the model', async () => {
    const { id, chat, events } = await setup('openai-compatible', { contextWindow: 2_048 });
    await chat.send(id, 'long '.repeat(5_000));
    await chat.idle(id);
    expect(events.at(-1)).toMatchObject({ type: 'turn-error', error: { code: 'context_too_long', retryable: false } });
    expect(server.requests).toHaveLength(0);
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
