import type { StoreApi, UseBoundStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';

/**
 * Several fields of one store under their own names, through one subscription: the component
 * renders again when any of them changes (each compared with Object.is), as it would with one
 * selector per field.
 */
export function useStoreFields<S extends object, K extends keyof S>(
  fields: readonly K[],
  useStore: UseBoundStore<StoreApi<S>>,
): Pick<S, K> {
  return useStore(
    useShallow((state) => {
      const picked = {} as Pick<S, K>;
      for (const field of fields) picked[field] = state[field];
      return picked;
    }),
  );
}
