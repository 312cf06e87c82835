import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { useStoreFields } from './use-store-fields';

interface CounterState {
  readonly count: number;
  readonly label: string;
  readonly unrelated: number;
}

describe('useStoreFields', () => {
  it('gives the named fields and renders again when one of them changes, not when another field does', () => {
    const useCounterStore = create<CounterState>()(() => ({ count: 1, label: 'one', unrelated: 0 }));
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useStoreFields(['count', 'label'], useCounterStore);
    });
    expect(result.current).toEqual({ count: 1, label: 'one' });
    expect(renders).toBe(1);

    act(() => useCounterStore.setState({ unrelated: 5 }));
    expect(renders).toBe(1);

    act(() => useCounterStore.setState({ label: 'two' }));
    expect(result.current).toEqual({ count: 1, label: 'two' });
    expect(renders).toBe(2);
  });
});
