import type { FoldedConversation } from '../domain/conversations/transcript-fold';

// Apart from memory-capture.ts, which loads the AI SDK: the chat service needs this at every send,
// the rest only once a turn runs (chat-service.ts loads run-turn.ts then).

/** What the turn knows of the conversation's exchanges: which were cut, which were offered already. */
export interface CaptureState {
  /** The id of each user message in the turn's history, in order (one per exchange). */
  readonly userMessageIds: readonly string[];
  /** The user message through whose exchange a capture was already made (transcript-fold.ts). */
  readonly capturedThrough: string | undefined;
}

/** The state from the transcript; `sent` is the id of a user message just sent, not folded yet. */
export const captureStateOf = (folded: FoldedConversation, sent?: string): CaptureState => ({
  userMessageIds: [
    ...folded.exchanges.map((exchange) => exchange.userMessageId),
    ...(sent === undefined ? [] : [sent]),
  ],
  capturedThrough: folded.memoryCapturedThrough,
});
