import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { progressReporter } from './progress';

describe('progressReporter', () => {
  it('reports to nobody when the request carried no progressToken', () => {
    expect(progressReporter(undefined, () => Promise.resolve())).toBeUndefined();
  });

  it('sends only increasing values, thins bursts, and always sends the end', () => {
    const sent: ServerNotification[] = [];
    let clock = 0;
    const report = progressReporter(
      'tok',
      (notification) => {
        sent.push(notification);
        return Promise.resolve();
      },
      () => clock,
    )!;
    report(10, undefined, 'ten');
    clock = 100;
    report(10); // not an increase
    clock = 200;
    report(5); // going back
    clock = 300;
    report(30, 100);
    clock = 310;
    report(40, 100); // too soon after the last one
    clock = 311;
    report(100, 100, 'done'); // the end, however soon
    expect(sent.map((notification) => notification.params)).toEqual([
      { progressToken: 'tok', progress: 10, message: 'ten' },
      { progressToken: 'tok', progress: 30, total: 100 },
      { progressToken: 'tok', progress: 100, total: 100, message: 'done' },
    ]);
    expect(sent.every((notification) => notification.method === 'notifications/progress')).toBe(true);
  });

  it('keeps the call going when the client is gone', async () => {
    const report = progressReporter(1, () => Promise.reject(new Error('closed')))!;
    expect(() => report(1)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
  });
});
