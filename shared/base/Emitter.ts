import { toDisposable, type Disposable } from './lifecycle.ts';

export type { Disposable } from './lifecycle.ts';

export type Listener<T> = (value: T) => void;

/** Subscribes a listener; the returned handle removes it. Named `onDidX` on the owning object. */
export type Event<T> = (listener: Listener<T>) => Disposable;

/** Where a throwing listener is reported (the owner's logger, say). */
export type ListenerErrorHandler = (error: unknown) => void;

const reportToConsole: ListenerErrorHandler = (error) => console.error('event listener failed', error);

/**
 * A typed event source, VS Code style: the owner keeps the emitter private and exposes only
 * `event`. A throwing listener is reported and does not keep later listeners from hearing it,
 * so one broken subscriber (a notifier, say) cannot stall sync.
 */
export class Emitter<T> {
  readonly #listeners = new Set<Listener<T>>();
  readonly #onListenerError: ListenerErrorHandler;
  #disposed = false;

  constructor(options: { onListenerError?: ListenerErrorHandler } = {}) {
    this.#onListenerError = options.onListenerError ?? reportToConsole;
  }

  readonly event: Event<T> = (listener) => {
    if (this.#disposed) return toDisposable(() => {});
    // A wrapper per registration, so the same function registered twice is heard twice and removed once.
    const entry: Listener<T> = (value) => listener(value);
    this.#listeners.add(entry);
    return toDisposable(() => this.#listeners.delete(entry));
  };

  fire(value: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  /**
   * Tells each listener in turn, waiting for the promise a listener returns before the next
   * hears it (opening and closing an account must not interleave). A listener that throws or
   * rejects is reported; the next still hears the value.
   */
  async fireInOrder(value: T): Promise<void> {
    for (const listener of [...this.#listeners]) {
      try {
        await (listener(value) as unknown);
      } catch (error) {
        this.#onListenerError(error);
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
