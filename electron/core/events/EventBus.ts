import { Emitter } from '../../../shared/base/Emitter.ts';
import type { Disposable } from '../../../shared/base/lifecycle.ts';
import type { EventName, EventPayload } from '../../../shared/ipc/index.ts';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

interface BusMessage {
  event: EventName;
  payload: EventPayload<EventName>;
}

/**
 * Push events to every connected UI. One `Emitter` carries them (shared/base): a transport that
 * throws does not stop the others (it is dropped when it closes), and the core disposes the bus
 * when it closes, so nothing stays subscribed.
 */
export class EventBus implements Disposable {
  // A broken transport must not take the core down, nor fill the log once per event.
  readonly #messages = new Emitter<BusMessage>({ onListenerError: () => {} });

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.#messages.fire({ event, payload });
  }

  subscribe(listener: EventListener): Disposable {
    return this.#messages.event(({ event, payload }) => listener(event, payload));
  }

  get listenerCount(): number {
    return this.#messages.listenerCount;
  }

  dispose(): void {
    this.#messages.dispose();
  }
}
