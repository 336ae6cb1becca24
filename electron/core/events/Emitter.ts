/** Something to undo: a listener registration, a timer. */
export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;

/** Subscribes a listener; the returned handle removes it. Named `onDidX` on the owning object. */
export type Event<T> = (listener: Listener<T>) => Disposable;

/**
 * A typed event source, VS Code style: the owner keeps the emitter private and exposes only
 * `event`. A throwing listener is reported and does not keep later listeners from hearing it,
 * so one broken subscriber (a notifier, say) cannot stall sync.
 */
export class Emitter<T> {
  readonly #listeners = new Set<Listener<T>>();
  #disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.#disposed) return { dispose() {} };
    // A wrapper per registration, so the same function registered twice is heard twice and removed once.
    const entry: Listener<T> = (value) => listener(value);
    this.#listeners.add(entry);
    return { dispose: () => void this.#listeners.delete(entry) };
  };

  fire(value: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch (error) {
        console.error('event listener failed', error);
      }
    }
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  dispose(): void {
    this.#disposed = true;
    this.#listeners.clear();
  }
}
