import { describe, expect, it } from 'vitest';
import { createChangeBatcher } from './change-batcher';
import type { ChangeBatch } from './change-batcher';

function collect() {
  const batches: ChangeBatch[] = [];
  // A long delay: these tests flush by hand, so timing never decides the outcome.
  const batcher = createChangeBatcher(60_000, (batch) => batches.push(batch));
  return { batches, batcher };
}

describe('createChangeBatcher', () => {
  it('delivers the net effect of each path in one batch', () => {
    const { batches, batcher } = collect();
    batcher.push('add', 'new.txt');
    batcher.push('change', 'new.txt');
    batcher.push('change', 'old.txt');
    batcher.push('remove', 'gone.txt');
    batcher.push('add', 'blip.txt');
    batcher.push('remove', 'blip.txt');
    batcher.push('remove', 'replaced.txt');
    batcher.push('add', 'replaced.txt');
    batcher.flush();
    expect(batches).toEqual([{ added: ['new.txt'], changed: ['old.txt', 'replaced.txt'], removed: ['gone.txt'] }]);
  });

  it('reports a rename as a removal and an addition in the same batch', () => {
    const { batches, batcher } = collect();
    batcher.push('remove', 'a.txt');
    batcher.push('add', 'b.txt');
    batcher.flush();
    expect(batches).toEqual([{ added: ['b.txt'], changed: [], removed: ['a.txt'] }]);
  });

  it('delivers nothing for a batch that nets out, and nothing after dispose', () => {
    const { batches, batcher } = collect();
    batcher.push('add', 'tmp');
    batcher.push('remove', 'tmp');
    batcher.flush();
    batcher.push('add', 'late.txt');
    batcher.dispose();
    batcher.flush();
    expect(batches).toEqual([]);
  });

  it('flushes by itself after the delay', async () => {
    const batches: ChangeBatch[] = [];
    const batcher = createChangeBatcher(5, (batch) => batches.push(batch));
    batcher.push('add', 'a');
    batcher.push('add', 'b');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(batches).toEqual([{ added: ['a', 'b'], changed: [], removed: [] }]);
  });
});
