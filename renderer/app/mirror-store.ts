import { create } from 'zustand';
import type { FamiliarError } from '../../shared/errors';
import type { CallInput, CallName, CallOutput, EventName, EventPayload, FamiliarApi } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';

/** What main last answered, under its own name (null until the first answer), and the last failure. */
type MirrorState<K extends string, V> = { readonly [P in K]: V | null } & {
  readonly error: FamiliarError | null;
};

/** The events whose payload is a whole new value of type V. */
type EventCarrying<V> = { [E in EventName]: EventPayload<E> extends V ? E : never }[EventName];

/** For reloadOn: per event, whether its payload is a reason to ask again. */
type ReloadFilters = { readonly [E in EventName]?: (payload: EventPayload<E>) => boolean };

/**
 * A store that mirrors main's answer to one call without input (settings.get, tools.list,
 * persona.info): `load` asks again, `received` takes a value main pushed, and a failure is kept
 * beside the last good value instead of replacing it. With `pushedBy`, `connect` loads and then
 * follows that event.
 */
export function createMirrorStore<K extends string, N extends CallName>(
  key: K,
  call: N,
  pushedBy?: EventCarrying<CallOutput<N>>,
) {
  type State = MirrorState<K, CallOutput<N>>;
  // The mapped key cannot be written as a literal: these casts only name the object's type.
  const useStore = create<State>()(() => ({ [key]: null, error: null }) as State);
  const received = (value: CallOutput<N>): void => {
    useStore.setState({ [key]: value, error: null } as Partial<State>);
  };
  const actions = {
    received,
    /** Keeps a call's answer: the new value, or the error (the value stays as it was). */
    settle: (result: Result<CallOutput<N>>): void => {
      if (result.ok) received(result.value);
      else useStore.setState({ error: result.error } as Partial<State>);
    },
    load: async (api: FamiliarApi): Promise<void> => {
      actions.settle(await api.invoke(call, {} as CallInput<N>));
    },
    /** Loads, then follows `pushedBy`; returns the unsubscribe. */
    connect: (api: FamiliarApi): (() => void) => {
      void actions.load(api);
      // EventCarrying checked the payload's type; the generic listener cannot say so itself.
      return pushedBy === undefined ? () => undefined : api.on(pushedBy, received as (payload: unknown) => void);
    },
    /**
     * Loads, then loads again whenever one of `events` fires (for an event named in `when`, only
     * when its payload matters); returns the unsubscribe.
     */
    reloadOn: (api: FamiliarApi, events: readonly EventName[], when: ReloadFilters = {}): (() => void) => {
      void actions.load(api);
      const stops = events.map((event) =>
        api.on(event, (payload) => {
          const matters = when[event] as ((payload: unknown) => boolean) | undefined;
          if (matters === undefined || matters(payload)) void actions.load(api);
        }),
      );
      return () => stops.forEach((stop) => stop());
    },
  };
  return { useStore, actions };
}
