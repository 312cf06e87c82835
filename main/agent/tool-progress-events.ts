import type { TurnEmitter } from './turn-emitter';
import type { ToolProgressListener } from './tool-set';

/** A call's progress goes to the page at most this often (a server may send hundreds a second). */
export const PROGRESS_EVENT_MS = 100;

/**
 * Turns a running call's progress (a built-in tool's ticker, an MCP server's notifications/progress)
 * into `tool-progress` events for its card: the first and the last always, the ones between at most
 * every PROGRESS_EVENT_MS per call.
 */
export function progressEvents(
  emitter: TurnEmitter,
  ids: { readonly conversationId: string; readonly turnId: string },
  now: () => number = Date.now,
): ToolProgressListener {
  const last = new Map<string, number>();
  return (toolCallId, done, total, message) => {
    const at = now();
    const previous = last.get(toolCallId);
    const finished = total !== undefined && done >= total;
    if (previous !== undefined && at - previous < PROGRESS_EVENT_MS && !finished) return;
    last.set(toolCallId, at);
    emitter.event({
      type: 'tool-progress',
      ...ids,
      toolCallId,
      progress: {
        done,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message: message.slice(0, 500) }),
      },
    });
  };
}
