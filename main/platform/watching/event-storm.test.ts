import { describe, expect, it } from 'vitest';
import { EventStorm } from './event-storm';

describe('EventStorm', () => {
  it('says a storm begins once, on the event that takes a one-second window over the limit', () => {
    const storm = new EventStorm(3);
    const at = (times: number[]) => times.map((now) => storm.begins(now));
    expect(at([10_000, 10_100, 10_200, 10_300, 10_400, 10_500])).toEqual([false, false, false, true, false, false]);
    // A new window (more than a second after the last one began) counts from zero again.
    expect(at([11_001, 11_002, 11_003])).toEqual([false, false, false]);
  });

  it('counts each window alone: events spread over several are no storm', () => {
    const storm = new EventStorm(2);
    expect([0, 500, 1001, 1500, 2002, 2500].map((now) => storm.begins(now + 5000))).toEqual(Array(6).fill(false));
  });
});
