import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { z } from 'zod';
import type { ChatEvent } from '../../shared/ipc/chat';
import type { AssistantMessage } from '../../shared/ipc/conversations';
import { err, ok } from '../../shared/result';
import type { ProviderKind, ProviderSettings } from '../../shared/settings';
import { createChatService } from '../agent/chat-service';
import type { ChatServiceDeps } from '../agent/chat-service';
import { openChatImageStore } from '../domain/conversations/chat-images';
import { openConversationStore } from '../domain/conversations/conversation-store';
import { toChatMessages } from '../domain/conversations/transcript-view';
import { routeAiSdkWarnings } from '../domain/providers/sdk-warnings';
import { createStderrLogger } from '../platform/logging/logger';
import { apiKeySecret, openSecretStore } from '../platform/secrets/secret-store';
import type { ToolExecutor } from '../tool-calls/tool-executor';
import { useTempDirs } from './temp-dir';

// The shared setup of the chat-service tests (main/agent/chat-service*.test.ts): a real chat service
// over a real conversation store and secret store, a small executor, and helpers that read its events.
// Separate from them so the test files can be split by behaviour. The scripted LLM server is started
// by the caller: it lives with the e2e fixtures, which lint lets only test files import.

export const quiet = createStderrLogger('test', () => undefined);
export const API_KEY = 'sk-test-0123456789abcdef';

/** A PNG as read_file answers it (shared/tool-image.ts): its facts and its bytes. */
const pictureResult = (path: string, png: Buffer) => ({
  kind: 'image',
  path,
  mime: 'image/png',
  bytes: png.length,
  width: png.readUInt32BE(16),
  height: png.readUInt32BE(20),
  data: png.toString('base64'),
});

/**
 * A small real executor: `read_note` reads a real file from a temp folder (a .png as a picture), `wait_for_stop` blocks
 * until the turn is stopped (a tool waiting on an approval behaves the same way).
 */
export function notesExecutor(dir: string) {
  const cancelled: string[] = [];
  /** The outside sources each turn began with (beginTurn), in order. */
  const begun: (readonly string[])[] = [];
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
        if (args.data.path.endsWith('.png'))
          return ok(pictureResult(args.data.path, await readFile(join(dir, args.data.path))));
        return ok(await readFile(join(dir, args.data.path), 'utf8'));
      } catch {
        return err('file_not_found', `${args.data.path} does not exist.`);
      }
    },
    beginTurn: (_conversationId, sources = []) => void begun.push(sources),
    cancelPending: (_conversationId, reason) => void cancelled.push(reason),
  };
  return { executor, cancelled, begun };
}

/** What the kit needs of the scripted server (the test file keeps the whole ScriptedLlmServer). */
interface StartedServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Registers the hooks of a chat-service test file: AI SDK warnings go to the quiet logger, a fresh
 * scripted server per test (from `startServer`) closed after it, temp folders removed after that.
 */
export function useChatServiceKit(startServer: () => Promise<StartedServer>) {
  const tempDir = useTempDirs();
  let server: StartedServer;
  beforeEach(async () => {
    routeAiSdkWarnings(quiet);
    server = await startServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function setup(
    kind: ProviderKind,
    overrides: Partial<ProviderSettings> = {},
    deps: Pick<ChatServiceDeps, 'mcpAttachments'> = {},
  ) {
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
    const { executor, cancelled, begun } = notesExecutor(home);
    const images = openChatImageStore(join(home, 'chat-images'));
    const chat = createChatService({
      conversations,
      images,
      provider: () => settings,
      secrets,
      executor,
      emit: (event) => events.push(event),
      logger: quiet,
      ...deps,
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
    return { home, id, chat, conversations, images, events, cancelled, begun, view, lastAssistant };
  }

  return { tempDir, setup };
}

export const textOf = (events: readonly ChatEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
export const kinds = (events: readonly ChatEvent[]) =>
  events.filter((event) => event.type !== 'text-delta').map((event) => event.type);
