import type { EventName, EventPayload } from '../../shared/ipc/contract';

/** Who listens to which contract event (by name, as frames carry it), in a page-side FamiliarApi. */
export type EventListeners = Map<string, Set<(payload: unknown) => void>>;

/** FamiliarApi.on over a listener map: adds the listener and answers the unsubscribe. */
export function addEventListener<E extends EventName>(
  listeners: EventListeners,
  event: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  const set = listeners.get(event) ?? new Set();
  listeners.set(event, set);
  const wrapped = listener as (payload: unknown) => void;
  set.add(wrapped);
  return () => {
    set.delete(wrapped);
  };
}
