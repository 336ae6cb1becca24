import type { EventName, EventPayload } from '../../../shared/ipc/index.ts';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Push events to every connected UI; a listener that throws does not stop the others. */
export class EventBus {
  readonly #listeners = new Set<EventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) {
      try {
        listener(event, payload);
      } catch {
        // A broken transport must not take the core down; it is dropped when it closes.
      }
    }
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
