/** A sliding one-minute window of calls per conversation. */
export interface RateLimiter {
  /** Counts the call and answers 0, or refuses it (not counted) and answers the ms to wait. */
  admit(conversationId: string): number;
}

const windowMs = 60_000;

export function createRateLimiter(callsPerMinute: number, now: () => number = Date.now): RateLimiter {
  const calls = new Map<string, number[]>();
  return {
    admit(conversationId) {
      const at = now();
      // Drop idle conversations now and then so the map does not grow forever.
      if (calls.size > 1000)
        for (const [id, times] of calls) if ((times.at(-1) ?? 0) <= at - windowMs) calls.delete(id);
      const times = (calls.get(conversationId) ?? []).filter((time) => time > at - windowMs);
      if (times.length >= callsPerMinute) {
        calls.set(conversationId, times);
        return times[0]! + windowMs - at;
      }
      times.push(at);
      calls.set(conversationId, times);
      return 0;
    },
  };
}
