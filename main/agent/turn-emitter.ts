import type { ChatEvent } from '../../shared/ipc/chat';

/** Text deltas are sent at most this often: a model can stream hundreds of tiny chunks a second. */
export const DELTA_FLUSH_MS = 16;

export interface TurnEmitter {
  /** Queues reply text; sent as one text-delta at the next flush. */
  text(text: string): void;
  /** Sends an event after any queued text, so the page sees everything in order. */
  event(event: ChatEvent): void;
  /** Sends queued text now. */
  flush(): void;
}

/**
 * Batches text deltas for one turn (about one event per animation frame) so the bridge and the
 * page are not flooded, without ever reordering text against tool calls or the turn's end.
 */
export function createTurnEmitter(
  ids: { conversationId: string; turnId: string },
  emit: (event: ChatEvent) => void,
): TurnEmitter {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === '') return;
    const text = pending;
    pending = '';
    emit({ type: 'text-delta', ...ids, text });
  };
  return {
    text(text) {
      pending += text;
      timer ??= setTimeout(flush, DELTA_FLUSH_MS);
    },
    event(event) {
      flush();
      emit(event);
    },
    flush,
  };
}
