import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ProgressReporter } from '../../tools/define-tool';

/** Between two notifications at least this long, except the last one (done === total). */
const MIN_INTERVAL_MS = 50;

/**
 * A tool's progress(done, total?, message?) as `notifications/progress` for the request's
 * progressToken. Undefined when the request carried none: the tools then report to nobody. The
 * spec wants progress to increase with each notification, so a value that does not is dropped;
 * a burst is thinned to one every MIN_INTERVAL_MS so a fast search does not flood the client.
 */
export function progressReporter(
  token: ProgressToken | undefined,
  send: (notification: ServerNotification) => Promise<void>,
  now: () => number = Date.now,
): ProgressReporter | undefined {
  if (token === undefined) return undefined;
  let last = -Infinity;
  let sentAt = -Infinity;
  return (done, total, message) => {
    const final = total !== undefined && done >= total;
    if (done <= last || (!final && now() - sentAt < MIN_INTERVAL_MS)) return;
    last = done;
    sentAt = now();
    void send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: done,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    }).catch(() => undefined); // The client went away: the call itself still ends normally.
  };
}
