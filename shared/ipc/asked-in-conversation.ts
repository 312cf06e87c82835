import { z } from 'zod';

/**
 * What names a question put to the user in a conversation (an approval request, a download offer)
 * and the answer to it: the question's own id, which the answer quotes, and the conversation it
 * was asked in. Spread first into the schema, so the fields keep their place.
 */
export const askedInConversation = { id: z.string(), conversationId: z.string() };
