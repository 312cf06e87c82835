import { useCallback, useEffect, useState } from 'react';
import type { DependencyList } from 'react';
import type { Result } from '../../shared/result';

export interface Answer<T> {
  /** The last value: null until the first answer (or while only errors came). */
  readonly value: T | null;
  /** The last error's message, or null. */
  readonly error: string | null;
  /** Sets the value from elsewhere (an event, another call's answer); clears the error. Stable, as setState is. */
  readonly setValue: (value: T) => void;
  readonly setError: (message: string | null) => void;
}

/**
 * What main answers to one call, asked on mount and again when `deps` change. An answer that comes
 * after the page moved on (unmounted, or asked again) is dropped, so a slow old answer never
 * overwrites a newer one.
 */
export function useAnswer<T>(ask: () => Promise<Result<T>>, deps: DependencyList): Answer<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void ask().then((answer) => {
      if (!current) return;
      if (answer.ok) {
        setValue(() => answer.value);
        setError(null);
      } else setError(answer.error.message);
    });
    return () => {
      current = false;
    };
    // The caller names what the question depends on, as for useEffect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  const set = useCallback((next: T) => {
    setValue(() => next);
    setError(null);
  }, []);
  return { value, error, setValue: set, setError };
}
