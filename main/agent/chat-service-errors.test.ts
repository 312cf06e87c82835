import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import { createChatService } from './chat-service';
import { openChatImageStore } from '../domain/conversations/chat-images';
import { openConversationStore } from '../domain/conversations/conversation-store';
import { openSecretStore } from '../platform/secrets/secret-store';
import { API_KEY, notesExecutor, quiet, useChatServiceKit } from '../test-support/chat-service-kit';

// A turn refused or failed with a typed error: a rejected key, a rate limit and its retry, an unknown
// model, an unreachable server, a message too long for the context, a busy conversation or no
// provider. Split from chat-service.test.ts by behaviour; the setup is shared through
// main/test-support/chat-service-kit.ts.

let server: ScriptedLlmServer;
const { setup, tempDir } = useChatServiceKit(async () => (server = await startScriptedLlmServer()));

describe.each(['openai-compatible', 'anthropic'] as const)('a turn over the %s protocol', (kind) => {
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
      images: openChatImageStore(join(home, 'i')),
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
});
