import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { NgramTaskQueue } from './ngram-task-queue';

/** A task that notes `what` in `ran` when it runs. */
const noting = (ran: string[], what: string) => (): Promise<void> => {
  ran.push(what);
  return Promise.resolve();
};

describe("the trigram index's task queue", () => {
  it('runs a delayed task once however often it is asked for, after the tasks before it', async () => {
    const queue = new NgramTaskQueue(() => undefined);
    const ran: string[] = [];
    void queue.enqueue(async () => {
      await sleep(20);
      ran.push('build');
    });
    for (let i = 0; i < 3; i += 1) queue.enqueueLater('refresh', 1, noting(ran, 'refresh'));
    await sleep(60);
    await queue.tail;
    expect(ran).toEqual(['build', 'refresh']);
  });

  it('takes no refresh or catch-up once they are refused (closing), even one a running task asks for', async () => {
    const queue = new NgramTaskQueue(() => undefined);
    const ran: string[] = [];
    queue.enqueueLater('catch-up', 1, noting(ran, 'catch-up waiting'));
    // A refresh still running when the service closes, which asks for the next one as it ends.
    const running = queue.enqueue(async () => {
      await sleep(20);
      queue.enqueueLater('refresh', 1, noting(ran, 'refresh asked while closing'));
      queue.enqueueLater('save', 1, noting(ran, 'save'));
    });
    queue.refuse(['refresh', 'catch-up']);
    await running;
    // A save asked for meanwhile is still taken (the close makes it once the task is over).
    expect(queue.cancel('save')).toBe(true);
    await sleep(40);
    await queue.tail;
    expect(ran).toEqual([]);
  });
});
