import type { EventName, EventPayload } from '../../../shared/ipc/contract';

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** Events pushed from main to every connected page, whatever the transport. */
export interface EventHub {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventHub(onListenerError: (error: unknown) => void): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(name, payload) {
      for (const listener of listeners) {
        // One broken transport (a closed socket) must not starve the others.
        try {
          listener(name, payload);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
