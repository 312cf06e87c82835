import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ChatMessage } from '../../shared/ipc/conversations';
import { useContractCores } from '../test-support/contract-core';
import type { ContractCore } from '../test-support/contract-core';
import { useTempDirs } from '../test-support/temp-dir';
import { appendTarget } from '../tools/memory-append';
import { replyReserve } from './context-budget';
import { NOTHING_TO_KEEP, planCapture } from './memory-capture';

/**
 * Memory kept before it is cut (issue 31), through the contract with the real core, the real tool
 * pipeline and the real AI SDK client against the scripted model: a conversation grows past a small
 * context window, and before the turn that leaves earlier exchanges out, one silent call offered only
 * memory_append keeps what is worth keeping in today's daily note.
 */
const tempDir = useTempDirs();
const startCore = useContractCores();
let server: ScriptedLlmServer;
afterEach(() => server.close());

/** Tokens the conversation may use once the window is narrowed: two long messages do not fit together. */
const BUDGET = 4_000;
/** ~2,500 tokens (4 ASCII characters a token). */
const longMessage = (topic: string) => `${topic} ${'lorem ipsum '.repeat(830)}`;

const isCapture = (request: { toolNames: readonly string[] }) =>
  request.toolNames.length === 1 && request.toolNames[0] === 'memory_append';

async function start() {
  server = await startScriptedLlmServer();
  const run = await startCore({ home: await tempDir(), llmUrl: server.url });
  const note = appendTarget('today', new Date());
  const readNote = () => readFile(join(run.paths.defaultWorkspace, note), 'utf8').catch(() => null);
  return { run, note, readNote };
}

/** Sends one message and waits for the turn's end. */
async function say(run: ContractCore, conversationId: string, text: string) {
  run.chatEvents.length = 0;
  await run.call('chat.send', { conversationId, text });
  return run.turnEnd();
}

/**
 * Two exchanges (a greeting, then a long message that still fits), the window narrowed after the
 * first so that the next long message leaves both out. The window is measured, not guessed: the
 * first turn reports its budget, which gives what the system prompt and the tools take.
 */
async function conversationAboutToBeCut(run: ContractCore, options: { incognito?: boolean } = {}) {
  const { id } = await run.call<{ id: string }>('conversations.create', options);
  server.enqueue(reply.text('Hello, Ada.'), reply.text('Noted, green tea it is.'));
  await say(run, id, 'Hi, I am Ada.');
  const started = run.chatEvents.find((event) => event.type === 'turn-started');
  if (started?.type !== 'turn-started') throw new Error('no turn-started');
  const wide = 128_000;
  const fixed = wide - replyReserve(wide) - started.context.budgetTokens;
  const contextWindow = Math.ceil((fixed + BUDGET) / 0.85);
  await run.call('providers.save', {
    provider: { kind: 'openai-compatible', model: 'scripted-model', baseUrl: `${server.url}/v1`, contextWindow },
  });
  await say(run, id, longMessage('I drink only green tea, and I am planning a trip to Kyoto in May.'));
  const report = run.chatEvents.find((event) => event.type === 'turn-started');
  expect(report).toMatchObject({ context: { droppedMessages: 0, elidedToolOutputs: 0 } });
  return id;
}

describe('memory capture before earlier messages leave the context', () => {
  it('keeps what is worth keeping in the daily note first, shows it, then answers; once per cut', async () => {
    const { run, note, readNote } = await start();
    const id = await conversationAboutToBeCut(run);
    const before = server.requests.length;
    server.enqueue(
      reply.toolCall('memory_append', { text: 'Ada drinks only green tea; Kyoto trip in May.', file: 'MEMORY.md' }),
    );
    server.enqueue(reply.text('Here is the itinerary.'));
    expect(await say(run, id, longMessage('Now plan the itinerary.'))).toMatchObject({ type: 'turn-finished' });

    // The capture call came first, offered memory_append alone, and saw the exchanges being cut.
    const [capture, answer, ...more] = server.requests.slice(before);
    expect(more).toHaveLength(0);
    expect(capture && isCapture(capture)).toBe(true);
    const offered = JSON.stringify(capture?.messages);
    expect(offered).toContain('Hi, I am Ada.');
    expect(offered).toContain('I drink only green tea');
    expect(offered).toContain('Noted, green tea it is.');
    expect(offered).toContain(NOTHING_TO_KEEP);
    expect(offered).not.toContain('Now plan the itinerary.');
    expect(capture?.system).toBe(answer?.system);
    // Then the user's turn, with every tool and the earlier exchanges left out.
    expect(answer?.toolNames).toContain('memory_append');
    expect(answer?.toolNames.length).toBeGreaterThan(1);
    expect(JSON.stringify(answer?.messages)).toContain('Now plan the itinerary.');
    // (The model still gets the context note naming what the user asked in them.)
    expect(JSON.stringify(answer?.messages)).not.toContain('Noted, green tea it is.');
    const started = run.chatEvents.find((event) => event.type === 'turn-started');
    expect(started).toMatchObject({ context: { droppedMessages: 4 } });

    // Today's daily note got the entry (not MEMORY.md, whatever the model asked), with no approval.
    expect(await readNote()).toMatch(
      /^# \d{4}-\d{2}-\d{2}\n\n- \[\d\d:\d\d\] Ada drinks only green tea; Kyoto trip in May\.\n$/,
    );
    expect(await readFile(join(run.paths.defaultWorkspace, 'MEMORY.md'), 'utf8')).not.toContain('Kyoto');
    expect(run.requested).toHaveLength(0);
    // The call went through the one pipeline: the audit log has it.
    const audit = await Promise.all(
      (await readdir(run.paths.audit)).map((file) => readFile(join(run.paths.audit, file), 'utf8')),
    );
    const lines = audit
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line['tool'] === 'memory_append')).toMatchObject([
      { conversation: id, paths: [note], outcome: 'ok' },
    ]);

    // The page heard of it before the answer, and the transcript keeps it with the turn.
    const types = run.chatEvents.map((event) => event.type).filter((type) => type !== 'text-delta');
    expect(types).toEqual(['turn-started', 'memory-captured', 'turn-finished']);
    const kept = { kept: [{ path: note, entry: expect.stringContaining('Ada drinks only green tea') as unknown }] };
    expect(run.chatEvents[1]).toMatchObject({ type: 'memory-captured', capture: kept });
    const opened = await run.call<{ messages: ChatMessage[] }>('conversations.open', { id });
    const answered = opened.messages.at(-1);
    expect(answered).toMatchObject({ role: 'assistant', status: 'complete', memoryCapture: kept });
    expect(answered?.role === 'assistant' && answered.parts).toEqual([
      { type: 'text', text: 'Here is the itinerary.' },
    ]);

    // The next turn cuts nothing new: no second capture.
    server.enqueue(reply.text('You are welcome.'));
    await say(run, id, 'Thanks!');
    expect(server.requests.slice(before + 2).map(isCapture)).toEqual([false]);
    expect(run.chatEvents.some((event) => event.type === 'memory-captured')).toBe(false);
  });

  it('records that nothing was kept when the model says so, and does not ask again for the same cut', async () => {
    const { run, readNote } = await start();
    const id = await conversationAboutToBeCut(run);
    server.enqueue(reply.text(NOTHING_TO_KEEP), reply.text('Sure.'));
    await say(run, id, longMessage('Something else entirely.'));
    expect(run.chatEvents.find((event) => event.type === 'memory-captured')).toMatchObject({
      capture: { kept: [] },
    });
    expect(await readNote()).toBeNull();
    server.enqueue(reply.text('Bye.'));
    await say(run, id, 'Bye');
    expect(server.requests.filter(isCapture)).toHaveLength(1);
  });

  it('says so when the capture fails, answers anyway, and offers the same exchanges again next turn', async () => {
    const { run, readNote } = await start();
    const id = await conversationAboutToBeCut(run);
    server.enqueue(reply.httpError(500, 'The capture model fell over.'), reply.text('Here is the itinerary.'));
    expect(await say(run, id, longMessage('Now plan the itinerary.'))).toMatchObject({ type: 'turn-finished' });
    expect(run.chatEvents.find((event) => event.type === 'memory-captured')).toMatchObject({
      capture: { kept: [], error: expect.stringContaining('fell over') as unknown },
    });
    const opened = await run.call<{ messages: ChatMessage[] }>('conversations.open', { id });
    expect(opened.messages.at(-1)).toMatchObject({ memoryCapture: { kept: [], error: expect.any(String) as unknown } });

    server.enqueue(reply.toolCall('memory_append', { text: 'Ada: green tea, Kyoto in May.' }), reply.text('Welcome.'));
    await say(run, id, 'Thanks!');
    expect(server.requests.filter(isCapture)).toHaveLength(2);
    expect(JSON.stringify(server.requests.filter(isCapture)[1]?.messages)).toContain('I drink only green tea');
    expect(await readNote()).toContain('Ada: green tea, Kyoto in May.');
  });

  it('makes no capture call with memory off', async () => {
    const { run, readNote } = await start();
    await run.call('settings.update', { memory: { enabled: false } });
    const id = await conversationAboutToBeCut(run);
    server.enqueue(reply.text('Here is the itinerary.'));
    expect(await say(run, id, longMessage('Now plan the itinerary.'))).toMatchObject({ type: 'turn-finished' });
    expect(run.chatEvents.find((event) => event.type === 'turn-started')).toMatchObject({
      context: { droppedMessages: 4 },
    });
    expect(server.requests.filter(isCapture)).toHaveLength(0);
    expect(run.chatEvents.some((event) => event.type === 'memory-captured')).toBe(false);
    expect(await readNote()).toBeNull();
  });

  it('makes no capture call in an incognito conversation', async () => {
    const { run, readNote } = await start();
    const id = await conversationAboutToBeCut(run, { incognito: true });
    server.enqueue(reply.text('Here is the itinerary.'));
    expect(await say(run, id, longMessage('Now plan the itinerary.'))).toMatchObject({ type: 'turn-finished' });
    expect(run.chatEvents.find((event) => event.type === 'turn-started')).toMatchObject({
      context: { droppedMessages: 4 },
    });
    expect(server.requests.filter(isCapture)).toHaveLength(0);
    expect(await readNote()).toBeNull();
  });
});

describe('planCapture', () => {
  const user = (text: string): ModelMessage => ({ role: 'user', content: text });
  const answer = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
  const history = [user('one'), answer('1'), user('two'), answer('2'), user('three'), answer('3'), user('four')];
  const ids = ['m-00000001', 'm-00000002', 'm-00000003', 'm-00000004'];

  it('offers the exchanges cut so far, whole, and never the one being answered', () => {
    expect(planCapture(history, -1, { userMessageIds: ids, capturedThrough: undefined })).toBeUndefined();
    expect(planCapture(history, 2, { userMessageIds: ids, capturedThrough: undefined })).toEqual({
      messages: history.slice(0, 4),
      throughMessageId: 'm-00000002',
    });
    // Cut up to the current exchange (its own tool output elided): the earlier ones only.
    expect(planCapture(history, 6, { userMessageIds: ids, capturedThrough: undefined })).toEqual({
      messages: history.slice(0, 6),
      throughMessageId: 'm-00000003',
    });
  });

  it('offers only what no capture was offered before', () => {
    expect(planCapture(history, 3, { userMessageIds: ids, capturedThrough: 'm-00000002' })).toBeUndefined();
    expect(planCapture(history, 5, { userMessageIds: ids, capturedThrough: 'm-00000002' })).toEqual({
      messages: history.slice(4, 6),
      throughMessageId: 'm-00000003',
    });
  });

  it('offers nothing when the history and the ids disagree', () => {
    expect(planCapture(history, 3, { userMessageIds: ids.slice(1), capturedThrough: undefined })).toBeUndefined();
  });
});
