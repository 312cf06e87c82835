import { describe, expect, it, vi } from 'vitest';
import { reply, startScriptedLlmServer } from '../../e2e/fixtures/scripted-llm-server';
import type { ApprovalRequest } from '../../shared/ipc/approvals';
import { startEverythingHttp } from '../test-support/everything-http';
import { useClosers } from '../test-support/closers';
import { useContractCores } from '../test-support/contract-core';
import type { ContractCore } from '../test-support/contract-core';
import { sendInNewConversation } from '../test-support/contract-turns';
import { everythingStdioJson, firstServerReady } from '../test-support/mcp-contract-kit';
import { useTempDirs } from '../test-support/temp-dir';

/**
 * The client side of the protocol as the page meets it (issue 29 item 5): a reference server's
 * progress on the tool card, Stop cancelling its call, its questions (a form, a link) and its
 * requests for the model put in the one approval dialog, the model answering through the real
 * provider client against the scripted server.
 */
const tempDir = useTempDirs();
const startCore = useContractCores();
const close = useClosers();

async function setUp(server: 'stdio' | 'http' = 'stdio') {
  const llm = await startScriptedLlmServer();
  close(() => llm.close());
  const run = await startCore({ home: await tempDir(), llmUrl: llm.url });
  let received: unknown[] = [];
  if (server === 'stdio') {
    await run.call('mcpServers.import', { text: everythingStdioJson });
  } else {
    const http = await startEverythingHttp();
    close(() => http.close());
    received = http.received;
    await run.call('mcpServers.import', { text: JSON.stringify({ mcpServers: { everything: { url: http.url } } }) });
  }
  await firstServerReady(run);
  return { llm, run, received };
}

/** The next request matching `which`, once it has come. */
const asked = (run: ContractCore, which: (request: ApprovalRequest) => boolean) =>
  vi.waitFor(() => run.requested.find(which) ?? Promise.reject(new Error('not asked yet')), { timeout: 10_000 });

/** Approves the call of the server's tool itself (every server tool asks by default). */
async function approveTool(run: ContractCore, tool: string): Promise<ApprovalRequest> {
  const request = await asked(run, (candidate) => candidate.mcp?.tool === tool);
  await run.call('approvals.answer', { id: request.id, decision: 'approve' });
  return request;
}

/**
 * Sends `text` in a new conversation, approves the call of the server's `tool` the model makes, and
 * waits for what the server asks meanwhile (a question for the user, or a request for the model).
 */
async function serverAsks(run: ContractCore, text: string, tool: string) {
  await sendInNewConversation(run, text);
  const call = await approveTool(run, tool);
  const question = await asked(run, (request) => request.elicitation !== undefined || request.sampling !== undefined);
  return { call, question };
}

const toolResult = (run: ContractCore) =>
  vi.waitFor(
    () => run.chatEvents.find((event) => event.type === 'tool-result') ?? Promise.reject(new Error('no result')),
    { timeout: 15_000 },
  );

describe('server progress, Stop, questions and sampling in the chat', () => {
  it("a long call's progress reaches its tool card as tool-progress events", async () => {
    const { llm, run } = await setUp();
    llm.enqueue(
      reply.toolCall('everything__trigger-long-running-operation', { duration: 1.5, steps: 3 }),
      reply.text('Done.'),
    );
    await sendInNewConversation(run, 'Run the long thing.');
    const call = await approveTool(run, 'trigger-long-running-operation');
    await toolResult(run);
    const progress = run.chatEvents.flatMap((event) => (event.type === 'tool-progress' ? [event] : []));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((event) => event.toolCallId === call.toolCallId)).toBe(true);
    expect(progress.slice(0, 2).map((event) => event.progress)).toEqual([
      { done: 1, total: 3 },
      { done: 2, total: 3 },
    ]);
  });

  it('Stop ends the call and the server receives notifications/cancelled for it (Streamable HTTP)', async () => {
    const { llm, run, received } = await setUp('http');
    llm.enqueue(reply.toolCall('everything__trigger-long-running-operation', { duration: 20, steps: 20 }));
    const conversationId = await sendInNewConversation(run, 'Run the long thing.');
    await approveTool(run, 'trigger-long-running-operation');
    await vi.waitFor(
      () => run.chatEvents.find((event) => event.type === 'tool-progress') ?? Promise.reject(new Error('no progress')),
      { timeout: 10_000 },
    );
    await run.call('chat.stop', { conversationId });
    expect((await run.turnEnd()).type).toBe('turn-stopped');
    const call = received.find((message) => (message as { method?: string }).method === 'tools/call') as
      { id: number } | undefined;
    await vi.waitFor(() =>
      expect(received).toContainEqual(
        expect.objectContaining({
          method: 'notifications/cancelled',
          params: expect.objectContaining({ requestId: call?.id }) as unknown,
        }),
      ),
    );
  });

  it('a form question shows its fields in the dialog; the values the user gives go back to the server', async () => {
    const { llm, run } = await setUp();
    llm.enqueue(reply.toolCall('everything__trigger-elicitation-request', {}), reply.text('Thanks.'));
    const { call, question } = await serverAsks(run, 'Ask me.', 'trigger-elicitation-request');
    expect(question).toMatchObject({ conversationId: call.conversationId, toolCallId: call.toolCallId });
    expect(question.elicitation).toMatchObject({
      server: 'everything',
      mode: 'form',
      message: 'Please provide inputs for the following fields:',
    });
    const fields = Object.fromEntries((question.elicitation?.fields ?? []).map((field) => [field.name, field]));
    expect(fields['name']).toMatchObject({ kind: 'text', required: true, title: 'String' });
    expect(fields['check']).toMatchObject({ kind: 'boolean', required: false });
    expect(fields['integer']).toMatchObject({ kind: 'integer', minimum: 1, maximum: 100, default: 42 });
    expect(fields['untitledSingleSelectEnum']).toMatchObject({ kind: 'choice', default: 'Monica' });
    expect(fields['titledSingleSelectEnum']?.options?.[0]).toEqual({ value: 'hero-1', label: 'Superman' });
    expect(fields['legacyTitledEnum']?.options?.[1]).toEqual({ value: 'pet-2', label: 'Dogs' });
    expect(fields['titledMultipleSelectEnum']).toMatchObject({ kind: 'choices', default: ['fish-1'] });
    await run.call('approvals.answer', {
      id: question.id,
      decision: 'approve',
      elicitationContent: { name: 'Ada Lovelace', check: true, integer: 7, titledMultipleSelectEnum: ['fish-2'] },
    });
    const result = await toolResult(run);
    const text = JSON.stringify(result);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('fish-2');
    await run.turnEnd();
  });

  it('a declined form goes back as declined, a dismissed one as cancelled', async () => {
    const { llm, run } = await setUp();
    for (const [answer, said] of [
      [{ decision: 'reject' }, 'decline'],
      [{ decision: 'reject', dismissed: true }, 'cancel'],
    ] as const) {
      llm.enqueue(reply.toolCall('everything__trigger-elicitation-request', {}), reply.text('Ok.'));
      run.requested.length = 0;
      const { question } = await serverAsks(run, 'Ask me.', 'trigger-elicitation-request');
      await run.call('approvals.answer', { id: question.id, ...answer });
      expect(JSON.stringify(await toolResult(run))).toContain(`\\"action\\": \\"${said}\\"`);
      await run.turnEnd();
    }
  });

  it('a link question names its host; approving it tells the server the user accepted', async () => {
    const { llm, run } = await setUp();
    llm.enqueue(
      reply.toolCall('everything__trigger-url-elicitation', {
        url: 'https://auth.example.com/start?x=1',
        message: 'Sign in to continue',
      }),
      reply.text('Ok.'),
    );
    const { question } = await serverAsks(run, 'Sign me in.', 'trigger-url-elicitation');
    expect(question.elicitation).toMatchObject({
      mode: 'url',
      url: 'https://auth.example.com/start?x=1',
      host: 'auth.example.com',
      message: 'Sign in to continue',
    });
    expect(question.summary).toContain('auth.example.com');
    await run.call('approvals.answer', { id: question.id, decision: 'approve' });
    expect(JSON.stringify(await toolResult(run))).toContain('User completed the URL elicitation flow');
  });

  it('a sampling request is shown, capped by the setting, and answered by the conversation’s model', async () => {
    const { llm, run } = await setUp();
    await run.call('settings.update', { mcp: { samplingMaxTokens: 64 } });
    llm.enqueue(
      reply.toolCall('everything__trigger-sampling-request', { prompt: 'Say hi', maxTokens: 500 }),
      reply.text('The model says: hello from sampling'),
      reply.text('It answered.'),
    );
    const { question } = await serverAsks(run, 'Sample.', 'trigger-sampling-request');
    expect(question.sampling).toEqual({
      server: 'everything',
      systemPrompt: 'You are a helpful test server.',
      messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: Say hi' }],
      maxTokens: 64,
      requestedMaxTokens: 500,
    });
    await run.call('approvals.answer', { id: question.id, decision: 'approve' });
    expect(JSON.stringify(await toolResult(run))).toContain('hello from sampling');
    // The second model request was the server's: its messages only, under the cap, no tools.
    const sampling = llm.requests[1];
    expect(sampling?.system).toBe('You are a helpful test server.');
    expect(sampling?.toolNames).toEqual([]);
    expect(sampling?.body['max_tokens'] ?? sampling?.body['max_completion_tokens']).toBe(64);
    expect(JSON.stringify(sampling?.messages)).toContain('context: Say hi');
    await run.turnEnd();
  });

  it('a rejected sampling request never reaches the model', async () => {
    const { llm, run } = await setUp();
    llm.enqueue(
      reply.toolCall('everything__trigger-sampling-request', { prompt: 'Say hi', maxTokens: 50 }),
      reply.text('It was refused.'),
    );
    const { question } = await serverAsks(run, 'Sample.', 'trigger-sampling-request');
    await run.call('approvals.answer', { id: question.id, decision: 'reject', reason: 'no' });
    const result = await toolResult(run);
    expect(JSON.stringify(result)).toContain('declined the sampling request');
    await run.turnEnd();
    expect(llm.requests).toHaveLength(2);
  });
});
