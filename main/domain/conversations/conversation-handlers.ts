import { err, ok } from '../../../shared/result';
import type { ChatImageStore } from './chat-images';
import type { Handlers } from '../../platform/ipc/dispatcher';
import type { ConversationStore } from './conversation-store';
import { toChatMessages } from './transcript-view';

export type ConversationHandlers = Pick<
  Handlers,
  | 'conversations.list'
  | 'conversations.create'
  | 'conversations.open'
  | 'conversations.rename'
  | 'conversations.delete'
  | 'conversations.restore'
  | 'conversations.search'
  | 'conversations.image'
>;

/** What the conversation calls need to know about live turns (the chat service answers). */
export interface LiveTurns {
  runningTurnId(conversationId: string): string | null;
  stop(conversationId: string, reason: string): Promise<boolean>;
}

export function createConversationHandlers(
  store: ConversationStore,
  turns: LiveTurns,
  images: ChatImageStore,
): ConversationHandlers {
  return {
    'conversations.list': async ({ trash }) =>
      ok({ conversations: trash ? await store.listTrash() : await store.list() }),
    'conversations.create': ({ incognito }) => store.create({ incognito }),
    'conversations.open': async ({ id }) => {
      const loaded = await store.load(id);
      if (!loaded.ok) return loaded;
      const runningTurnId = turns.runningTurnId(id);
      return ok({
        conversation: loaded.value.summary,
        messages: toChatMessages(loaded.value.folded, runningTurnId),
        runningTurnId,
        skippedLines: loaded.value.skippedLines,
      });
    },
    'conversations.rename': ({ id, title }) => store.rename(id, title),
    'conversations.delete': async ({ id }) => {
      await turns.stop(id, 'The conversation was deleted.');
      // An incognito conversation's pictures go with it; others stay for a restore (they are shared by hash).
      const incognito = store.isIncognito(id);
      const removed = await store.moveToTrash(id);
      if (removed.ok && incognito) images.forget(id);
      return removed.ok ? ok({ id }) : removed;
    },
    'conversations.restore': ({ id }) => store.restore(id),
    'conversations.search': async ({ query }) => ok({ conversations: await store.search(query) }),
    'conversations.image': async ({ id, hash }) => {
      const loaded = await store.load(id);
      if (!loaded.ok) return loaded;
      const named = loaded.value.folded.exchanges.some((exchange) =>
        (exchange.images ?? []).some((ref) => ref.hash === hash || ref.sent?.hash === hash),
      );
      const picture = named ? await images.read(id, hash) : undefined;
      if (picture === undefined) return err('not_found', 'This picture is not kept any more.');
      return ok({ mime: picture.mime, data: picture.bytes.toString('base64') });
    },
  };
}
