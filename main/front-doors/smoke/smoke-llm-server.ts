import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';
import { confinementScript, smokeScript } from './smoke-script';

/**
 * The model `--smoke-test` talks to: a real HTTP server on 127.0.0.1 speaking the OpenAI Chat
 * Completions streaming protocol, so the packaged app's own provider code (AI SDK client, fetch,
 * SSE parsing) runs for real without a network or a key. It ships in the app, unlike the richer
 * test server in e2e/fixtures, so it plays exactly the two scripts of smoke-script.ts and nothing else:
 * the write_file conversation, and (when the first user message is the confinement check's and a
 * command was given) the run_command one.
 *
 * It answers from what the request holds, not from a queue: no tool result yet → the tool call;
 * the tool's result present → the closing reply. A client that retries gets the same answer.
 */

export interface SmokeModelRequest {
  /** Which conversation it belongs to (chosen by its first user message). */
  readonly script: 'write' | 'confinement';
  readonly toolNames: readonly string[];
  /** The content of the tool message answering our call, when the request carried one. */
  readonly toolResult: string | undefined;
}

export interface SmokeLlmServer {
  /** The base URL a provider takes: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  readonly requests: readonly SmokeModelRequest[];
  close(): Promise<void>;
}

interface ChatMessage {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly tool_call_id?: unknown;
}

function toolResultOf(messages: readonly ChatMessage[], toolCallId: string): string | undefined {
  const answer = messages.find((message) => message.role === 'tool' && message.tool_call_id === toolCallId);
  if (answer === undefined) return undefined;
  return typeof answer.content === 'string' ? answer.content : JSON.stringify(answer.content);
}

function toolNamesOf(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body['tools']) ? (body['tools'] as { function?: { name?: unknown } }[]) : [];
  return tools.map((tool) => String(tool.function?.name));
}

function firstUserText(messages: readonly ChatMessage[]): string {
  const first = messages.find((message) => message.role === 'user');
  if (typeof first?.content === 'string') return first.content;
  // Content parts: [{type: 'text', text}].
  const parts = Array.isArray(first?.content) ? (first.content as { text?: unknown }[]) : [];
  return parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: string;
}

/** The SSE frames of one streamed completion: role, content, an optional tool call, finish, usage, [DONE]. */
function completionFrames(
  model: string,
  text: string,
  toolCall: ToolCall | undefined,
  includeUsage: boolean,
): string[] {
  const base = { id: `chatcmpl-smoke-${Date.now()}`, object: 'chat.completion.chunk', created: 0, model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const frames = [chunk({ role: 'assistant', content: '' }), chunk({ content: text })];
  if (toolCall !== undefined) {
    const args = toolCall.args;
    const call = { index: 0, id: toolCall.id, type: 'function' };
    frames.push(chunk({ tool_calls: [{ ...call, function: { name: toolCall.name, arguments: '' } }] }));
    // Arguments arrive in two pieces, as real servers send them.
    const half = Math.floor(args.length / 2);
    for (const piece of [args.slice(0, half), args.slice(half)]) {
      frames.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    }
  }
  frames.push(chunk({}, toolCall === undefined ? 'stop' : 'tool_calls'));
  if (includeUsage) {
    const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
    frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
}

export interface SmokeLlmOptions {
  /** The shell command the confinement check's run_command call carries (confinement-check.ts). */
  readonly confinementCommand?: string;
}

export async function startSmokeLlmServer(options: SmokeLlmOptions = {}): Promise<SmokeLlmServer> {
  const requests: SmokeModelRequest[] = [];
  const writeCall: ToolCall = {
    id: smokeScript.toolCallId,
    name: 'write_file',
    args: JSON.stringify({ path: smokeScript.file, content: smokeScript.content }),
  };
  const commandCall = (command: string): ToolCall => ({
    id: confinementScript.toolCallId,
    name: 'run_command',
    args: JSON.stringify({ command, shell: true, timeout: 30 }),
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return fail(res, 404, `no route ${path}`);
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    const messages = Array.isArray(body['messages']) ? (body['messages'] as ChatMessage[]) : [];
    const command = options.confinementCommand;
    const confinement = command !== undefined && firstUserText(messages) === confinementScript.userMessage;
    const call = confinement ? commandCall(command) : writeCall;
    const request: SmokeModelRequest = {
      script: confinement ? 'confinement' : 'write',
      toolNames: toolNamesOf(body),
      toolResult: toolResultOf(messages, call.id),
    };
    requests.push(request);
    const first = request.toolResult === undefined;
    if (first && !request.toolNames.includes(call.name)) {
      return fail(res, 400, `smoke test: the request offered no ${call.name} tool`);
    }
    const includeUsage = (body['stream_options'] as { include_usage?: unknown } | undefined)?.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const said = confinement ? confinementScript : smokeScript;
    const text = first ? said.preamble : said.reply;
    for (const frame of completionFrames(String(body['model']), text, first ? call : undefined, includeUsage)) {
      res.write(frame);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) fail(res, 500, `smoke test server failed: ${String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
