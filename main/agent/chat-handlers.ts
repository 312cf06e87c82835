import { ok } from '../../shared/result';
import type { Handlers } from '../platform/ipc/dispatcher';
import type { ChatService } from './chat-service';

export type ChatHandlers = Pick<Handlers, 'chat.send' | 'chat.stop' | 'chat.retry'>;

export function createChatHandlers(chat: ChatService): ChatHandlers {
  return {
    'chat.send': ({ conversationId, text, images, mcp }) => chat.send(conversationId, text, images, mcp),
    'chat.stop': async ({ conversationId }) => ok({ stopped: await chat.stop(conversationId) }),
    'chat.retry': ({ conversationId }) => chat.retry(conversationId),
  };
}
