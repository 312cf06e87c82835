import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { useAnswer } from './use-answer';

/** Answers the test hands out in any order. */
function pendingAnswers() {
  const waiting = new Map<string, (answer: Result<string>) => void>();
  return {
    ask: (question: string) => new Promise<Result<string>>((resolve) => waiting.set(question, resolve)),
    answer: async (question: string, answer: Result<string>) => {
      await act(async () => {
        waiting.get(question)?.(answer);
        await Promise.resolve();
      });
    },
  };
}

describe('useAnswer', () => {
  it('keeps the newest question’s answer: a slow answer to an older one is dropped', async () => {
    const answers = pendingAnswers();
    const { result, rerender } = renderHook(({ q }) => useAnswer(() => answers.ask(q), [q]), {
      initialProps: { q: 'first' },
    });
    expect(result.current.value).toBeNull();
    rerender({ q: 'second' });
    await answers.answer('second', ok('two'));
    await answers.answer('first', ok('one'));
    expect(result.current.value).toBe('two');
  });

  it('gives an error’s message, cleared by the next value', async () => {
    const answers = pendingAnswers();
    const { result, rerender } = renderHook(({ q }) => useAnswer(() => answers.ask(q), [q]), {
      initialProps: { q: 'bad' },
    });
    await answers.answer('bad', err('invalid_arguments', 'not a schedule'));
    expect(result.current).toMatchObject({ value: null, error: 'not a schedule' });
    rerender({ q: 'good' });
    await answers.answer('good', ok('fine'));
    await waitFor(() => expect(result.current).toMatchObject({ value: 'fine', error: null }));
    act(() => result.current.setValue('from an event'));
    expect(result.current.value).toBe('from an event');
  });
});
