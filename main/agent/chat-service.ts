import type { LanguageModel, ModelMessage } from 'ai';
import { modelTakesImages } from '../../shared/chat-images';
import type { ImageUpload } from '../../shared/chat-images';
import type { McpAttachmentRequest } from '../../shared/mcp-attachments';
import type { ChatEvent, UserMessage } from '../../shared/ipc/chat';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import type { ProviderSettings } from '../../shared/settings';
import type { ChatImageStore } from '../domain/conversations/chat-images';
import { attachmentSources } from '../domain/mcp-servers/mcp-attachments';
import type { ResolvedAttachments } from '../domain/mcp-servers/mcp-attachments';
import type { ConversationStore } from '../domain/conversations/conversation-store';
import { newId } from '../domain/conversations/ids';
import { lastAttempt } from '../domain/conversations/transcript-fold';
import type { Logger } from '../platform/logging/logger';
import { createLanguageModel, toolResultImages } from '../domain/providers/language-model';
import { apiKeySecret } from '../platform/secrets/secret-store';
import type { SecretStore } from '../platform/secrets/secret-store';
import { toModelMessages } from './model-history';
import { captureStateOf } from './capture-state';
import type { CaptureState } from './capture-state';
import { historyImageHashes, loadUserImages, userContent } from './user-content';
import type { ToolExecutor } from '../tool-calls/tool-executor';
import { createTurnEmitter } from './turn-emitter';

export interface ChatServiceDeps {
  readonly conversations: ConversationStore;
  /** The pictures attached to messages (in the home, or in memory for an incognito conversation). */
  readonly images: ChatImageStore;
  /** The current provider settings (settings.json), read at the start of every turn. */
  readonly provider: () => ProviderSettings | null;
  readonly secrets: SecretStore;
  readonly executor: ToolExecutor;
  readonly emit: (event: ChatEvent) => void;
  readonly logger: Logger;
  /** How a model is built from settings and key; the real AI SDK providers unless a test says otherwise. */
  readonly createModel?: (settings: ProviderSettings, apiKey: string | undefined) => Promise<Result<LanguageModel>>;
  /** Reads the resources and prompts picked from the user's MCP servers (domain/mcp-servers/mcp-attachments.ts). */
  readonly mcpAttachments?: (
    requests: readonly McpAttachmentRequest[],
    options: { vision: boolean; signal: AbortSignal },
  ) => Promise<Result<ResolvedAttachments>>;
}

export interface ChatService {
  send(
    conversationId: string,
    text: string,
    images?: readonly ImageUpload[],
    mcp?: readonly McpAttachmentRequest[],
  ): Promise<Result<{ turnId: string; userMessageId: string }>>;
  /** Stops the running turn and resolves once it has ended; false when nothing was running. */
  stop(conversationId: string, reason?: string): Promise<boolean>;
  retry(conversationId: string): Promise<Result<{ turnId: string }>>;
  runningTurnId(conversationId: string): string | null;
  /** Is any conversation answering now? (Quitting asks first.) */
  anyRunning(): boolean;
  /** Resolves when the conversation's running turn (if any) has ended. */
  idle(conversationId: string): Promise<void>;
  /** Stops every turn (Familiar is quitting). */
  dispose(reason: string): Promise<void>;
}

interface ActiveTurn {
  turnId: string | undefined;
  readonly controller: AbortController;
  done: Promise<void>;
}

const loadRunTurn = () => import('./run-turn');

/**
 * Owns the turns: at most one per conversation. A turn is started by send or retry, runs in the
 * background (its progress goes out as chat.event), and can be stopped at any moment.
 */
export function createChatService(deps: ChatServiceDeps): ChatService {
  const active = new Map<string, ActiveTurn>();
  const createModel = deps.createModel ?? createLanguageModel;

  /** Claims the conversation synchronously, so two quick sends cannot both start a turn. */
  function claim(conversationId: string): Result<ActiveTurn> {
    if (active.has(conversationId)) {
      return err('turn_in_progress', 'The assistant is still answering in this conversation. Stop it first.');
    }
    const turn: ActiveTurn = { turnId: undefined, controller: new AbortController(), done: Promise.resolve() };
    active.set(conversationId, turn);
    return ok(turn);
  }

  async function modelFor(): Promise<Result<{ model: LanguageModel; settings: ProviderSettings }>> {
    const settings = deps.provider();
    if (settings === null) return err('provider_not_configured', 'Choose a model provider in Settings first.');
    const model = await createModel(settings, deps.secrets.get(apiKeySecret(settings.kind)));
    return model.ok ? ok({ model: model.value, settings }) : model;
  }

  function start(
    conversationId: string,
    turn: ActiveTurn,
    run: {
      turnId: string;
      model: LanguageModel;
      settings: ProviderSettings;
      history: ModelMessage[];
      capture: CaptureState;
      /** Outside content the message carries (its MCP attachments), as provenance names it. */
      sources: readonly string[];
    },
    announce: { userMessage: Omit<UserMessage, 'role'> | null; retryOf: string | null },
  ) {
    turn.turnId = run.turnId;
    // What the model read in earlier turns no longer counts as recent influence (provenance guard);
    // what the message itself carries from an MCP server does.
    deps.executor.beginTurn(conversationId, run.sources);
    const ids = { conversationId, turnId: run.turnId };
    const emitter = createTurnEmitter(ids, deps.emit);
    // The turn's code (the AI SDK with it) loads with the first turn, not with every start of the
    // app and the MCP server (which runs none).
    turn.done = loadRunTurn()
      .then(({ runTurn }) =>
        runTurn({
          ...ids,
          userMessage: announce.userMessage === null ? null : { role: 'user', ...announce.userMessage },
          retryOf: announce.retryOf,
          history: run.history,
          capture: run.capture,
          model: run.model,
          settings: run.settings,
          executor: deps.executor,
          signal: turn.controller.signal,
          emitter,
          record: async (records, options) => {
            const appended = await deps.conversations.append(conversationId, records, options);
            // Refused only once the store is closed (shutdown): nothing more of this turn may be written,
            // so the turn stops rather than answering into a transcript that is gone.
            if (!appended.ok) turn.controller.abort(appended.error.message);
          },
          secrets: () => deps.secrets.values(),
          logger: deps.logger,
        }),
      )
      .then(() => undefined)
      .catch((error: unknown) => {
        // Only an I/O failure of the transcript gets here; the page still learns the turn ended.
        deps.logger.error(`turn ${run.turnId} could not be saved`, error);
        emitter.event({
          type: 'turn-error',
          ...ids,
          error: {
            code: 'internal_error',
            message: 'Familiar could not save this conversation (is the disk full?).',
            retryable: true,
          },
        });
      })
      .finally(() => {
        if (active.get(conversationId) === turn) active.delete(conversationId);
      });
  }

  /**
   * Claims the conversation, then runs `prepare`; if it fails (or throws) before a turn was started,
   * the claim is released so the next send is not refused.
   */
  async function withClaim<T>(
    conversationId: string,
    prepare: (turn: ActiveTurn) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    const claimed = claim(conversationId);
    if (!claimed.ok) return claimed;
    const turn = claimed.value;
    const release = () => {
      if (turn.turnId === undefined && active.get(conversationId) === turn) active.delete(conversationId);
    };
    try {
      const result = await prepare(turn);
      if (!result.ok) release();
      return result;
    } catch (error) {
      release();
      throw error;
    }
  }

  const service: ChatService = {
    send: (conversationId, text, uploads = [], mcp = []) =>
      withClaim(conversationId, async (turn) => {
        const model = await modelFor();
        if (!model.ok) return model;
        const vision = modelTakesImages(model.value.settings);
        // Refused, never dropped: the page says so in the composer before it gets here.
        if (uploads.length > 0 && !vision) {
          return err(
            'images_not_supported',
            `The model ${model.value.settings.model} does not take images. Remove the pictures, or turn on "Supports images" for it in Settings if it does.`,
          );
        }
        let picked: ResolvedAttachments = { attachments: [], images: [] };
        if (mcp.length > 0) {
          const resolved =
            deps.mcpAttachments === undefined
              ? err('mcp_server_unavailable', 'MCP servers are not available here.')
              : await deps.mcpAttachments(mcp, { vision, signal: turn.controller.signal });
          if (!resolved.ok) return resolved;
          picked = resolved.value;
        }
        const attachments = picked.attachments.length === 0 ? undefined : picked.attachments;
        const loaded = await deps.conversations.load(conversationId);
        if (!loaded.ok) return loaded;
        const kept = await deps.images.keep(
          conversationId,
          [...uploads, ...picked.images],
          deps.conversations.isIncognito(conversationId),
        );
        if (!kept.ok) return kept;
        const images = kept.value.length === 0 ? undefined : kept.value;
        const userMessageId = newId('m');
        const turnId = newId('t');
        const createdAt = new Date().toISOString();
        // The user's words are durable before anything else happens.
        const appended = await deps.conversations.append(
          conversationId,
          [
            {
              type: 'user',
              messageId: userMessageId,
              text,
              ...(images === undefined ? {} : { images }),
              ...(attachments === undefined ? {} : { attachments }),
            },
            { type: 'turn-start', turnId, userMessageId, retryOf: null },
          ],
          { sync: true },
        );
        if (!appended.ok) return appended;
        const { folded } = loaded.value;
        const userImages = await loadUserImages(
          [...historyImageHashes(folded), ...(images ?? []).map((ref) => ref.sent?.hash ?? ref.hash)],
          vision,
          (hash) => deps.images.read(conversationId, hash),
        );
        const history = [
          ...toModelMessages(folded, { images: toolResultImages(model.value.settings), userImages }),
          { role: 'user' as const, content: userContent(text, images, userImages, attachments) },
        ];
        const capture = captureStateOf(folded, userMessageId);
        start(
          conversationId,
          turn,
          { turnId, ...model.value, history, capture, sources: attachmentSources(attachments) },
          {
            userMessage: {
              id: userMessageId,
              text,
              ...(images === undefined ? {} : { images }),
              ...(attachments === undefined ? {} : { attachments }),
              createdAt,
            },
            retryOf: null,
          },
        );
        return ok({ turnId, userMessageId });
      }),

    retry: (conversationId) =>
      withClaim(conversationId, async (turn) => {
        const model = await modelFor();
        if (!model.ok) return model;
        const loaded = await deps.conversations.load(conversationId);
        if (!loaded.ok) return loaded;
        const last = lastAttempt(loaded.value.folded);
        if (last === undefined || last.attempt.end?.status === 'complete') {
          return err('not_found', 'There is no failed, stopped or interrupted answer to retry in this conversation.');
        }
        const turnId = newId('t');
        const appended = await deps.conversations.append(
          conversationId,
          [{ type: 'turn-start', turnId, userMessageId: last.exchange.userMessageId, retryOf: last.attempt.turnId }],
          { sync: true },
        );
        if (!appended.ok) return appended;
        const { folded } = loaded.value;
        const userImages = await loadUserImages(
          historyImageHashes(folded),
          modelTakesImages(model.value.settings),
          (hash) => deps.images.read(conversationId, hash),
        );
        const history = toModelMessages(folded, {
          supersedeLast: true,
          images: toolResultImages(model.value.settings),
          userImages,
        });
        const capture = captureStateOf(folded);
        start(
          conversationId,
          turn,
          { turnId, ...model.value, history, capture, sources: attachmentSources(last.exchange.attachments) },
          { userMessage: null, retryOf: last.attempt.turnId },
        );
        return ok({ turnId });
      }),

    async stop(conversationId, reason = 'Stopped by the user.') {
      const turn = active.get(conversationId);
      if (turn === undefined) return false;
      turn.controller.abort(reason);
      deps.executor.cancelPending(conversationId, reason);
      await turn.done;
      return true;
    },

    runningTurnId: (conversationId) => active.get(conversationId)?.turnId ?? null,

    anyRunning: () => active.size > 0,

    async idle(conversationId) {
      await active.get(conversationId)?.done;
    },

    async dispose(reason) {
      await Promise.all([...active.keys()].map((conversationId) => service.stop(conversationId, reason)));
    },
  };
  return service;
}
