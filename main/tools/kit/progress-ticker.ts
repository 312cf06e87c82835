import type { ToolContext } from '../define-tool';

/**
 * For a long wait with no steps of its own (a command running, an index building): reports
 * `sample()` every `everyMs` while it lasts, only when someone listens (ctx.progress). Returns the
 * stop function; call it however the wait ends.
 */
export function tickProgress(
  ctx: ToolContext,
  everyMs: number,
  sample: () => readonly [done: number, total: number | undefined, message: string],
): () => void {
  const progress = ctx.progress;
  if (progress === undefined) return () => undefined;
  const timer = setInterval(() => {
    const [done, total, message] = sample();
    progress(done, total, message);
  }, everyMs);
  return () => clearInterval(timer);
}
