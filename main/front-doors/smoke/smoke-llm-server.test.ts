import { afterEach, describe, expect, it } from 'vitest';
import { startSmokeLlmServer } from './smoke-llm-server';
import type { SmokeLlmOptions, SmokeLlmServer } from './smoke-llm-server';
import { confinementScript, smokeScript } from './smoke-script';

let server: SmokeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Delta {
  content?: string;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
}

/** Posts a chat completion and reads the SSE stream back as the client would. */
async function complete(body: Record<string, unknown>, options: SmokeLlmOptions = {}) {
  server ??= await startSmokeLlmServer(options);
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: smokeScript.model, stream: true, ...body }),
  });
  const text = await response.text();
  const data = text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length));
  const chunks = data
    .filter((item) => item !== '[DONE]')
    .map((item) => JSON.parse(item) as { choices: { delta: Delta; finish_reason: string | null }[]; usage?: unknown });
  const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
  return {
    status: response.status,
    done: data.at(-1) === '[DONE]',
    text: deltas.map((delta) => delta.content ?? '').join(''),
    toolCalls: deltas.flatMap((delta) => delta.tool_calls ?? []),
    finish: chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter((f) => f !== null),
    usage: chunks.some((chunk) => chunk.usage !== undefined),
  };
}

const writeFileTool = { type: 'function', function: { name: 'write_file', parameters: {} } };

describe('the smoke test model server', () => {
  it('answers a first request with a streamed write_file call, arguments split across chunks', async () => {
    const reply = await complete({ messages: [{ role: 'user', content: 'hi' }], tools: [writeFileTool] });
    expect(reply).toMatchObject({ status: 200, done: true, text: smokeScript.preamble, finish: ['tool_calls'] });
    expect(reply.toolCalls[0]).toMatchObject({ id: smokeScript.toolCallId, function: { name: 'write_file' } });
    expect(reply.toolCalls.length).toBeGreaterThan(2);
    const args = reply.toolCalls.map((call) => call.function?.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ path: smokeScript.file, content: smokeScript.content });
    expect(server?.requests).toEqual([{ script: 'write', toolNames: ['write_file'], toolResult: undefined }]);
  });

  it('answers the request carrying the tool result with the closing reply, and usage when asked', async () => {
    const reply = await complete({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: smokeScript.toolCallId, content: '{"created":true}' },
      ],
      tools: [writeFileTool],
      stream_options: { include_usage: true },
    });
    expect(reply).toMatchObject({ text: smokeScript.reply, toolCalls: [], finish: ['stop'], usage: true });
    expect(server?.requests[0]?.toolResult).toBe('{"created":true}');
  });

  it('refuses a request that offers no write_file tool, and anything but chat completions', async () => {
    expect((await complete({ messages: [] })).status).toBe(400);
    const other = await fetch(`${server!.baseUrl}/models`);
    expect(other.status).toBe(404);
  });

  it("plays the confinement check's run_command call when its message opens the conversation", async () => {
    const runCommandTool = { type: 'function', function: { name: 'run_command', parameters: {} } };
    const options = { confinementCommand: 'echo INSIDE=written' };
    const messages = [{ role: 'user', content: [{ type: 'text', text: confinementScript.userMessage }] }];
    const reply = await complete({ messages, tools: [writeFileTool, runCommandTool] }, options);
    expect(reply).toMatchObject({ status: 200, text: confinementScript.preamble, finish: ['tool_calls'] });
    expect(reply.toolCalls[0]).toMatchObject({ id: confinementScript.toolCallId, function: { name: 'run_command' } });
    const args = reply.toolCalls.map((call) => call.function?.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ command: 'echo INSIDE=written', shell: true, timeout: 30 });
    const answered = await complete({
      messages: [
        ...messages,
        { role: 'tool', tool_call_id: confinementScript.toolCallId, content: '{"confined":true}' },
      ],
      tools: [runCommandTool],
    });
    expect(answered).toMatchObject({ text: confinementScript.reply, toolCalls: [], finish: ['stop'] });
    expect(server?.requests.map((request) => [request.script, request.toolResult])).toEqual([
      ['confinement', undefined],
      ['confinement', '{"confined":true}'],
    ]);
    // Without run_command offered there is nothing to play.
    expect((await complete({ messages, tools: [writeFileTool] })).status).toBe(400);
  });
});
