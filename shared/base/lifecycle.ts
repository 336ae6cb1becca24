/**
 * Lifetimes, VS Code style (src/vs/base/common/lifecycle.ts is the model): whoever subscribes,
 * starts a timer or opens something holds the handle that undoes it, and disposes it when it
 * goes. Both processes (and the renderer) use these, so a listener set is never hand-written.
 */

/** Something to undo: a listener registration, a timer. */
export interface Disposable {
  dispose(): void;
}

/** A handle that runs `undo` the first time it is disposed and never again. */
export function toDisposable(undo: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      undo();
    },
  };
}

/**
 * Everything an owner subscribed, disposed together. Disposes in reverse order of adding (what
 * was set up last may lean on what came before, as in a stack of try/finally), each item once;
 * one that throws does not keep the rest from being disposed, and the errors are thrown together
 * at the end. Once the store is disposed, anything added is disposed at once: a subscription
 * made by a late callback cannot outlive its owner.
 */
export class DisposableStore implements Disposable {
  readonly #items: Disposable[] = [];
  #disposed = false;

  get isDisposed(): boolean {
    return this.#disposed;
  }

  /** Keeps `item` until the store is disposed (or disposes it now if the store already is); returns it. */
  add<T extends Disposable>(item: T): T {
    if (this.#disposed) {
      item.dispose();
      return item;
    }
    if (!this.#items.includes(item)) this.#items.push(item);
    return item;
  }

  /** Disposes what is held now and keeps taking new items (a per-session store between sessions). */
  clear(): void {
    const items = this.#items.splice(0).reverse();
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed to dispose');
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.clear();
  }
}

/** Something whose undoing may take a while: a database to close, a server to stop. A {@link Disposable} is one too. */
export interface AsyncDisposable {
  dispose(): Promise<void> | void;
}

/** A handle that runs `close` the first time it is disposed; later calls wait for that same run. */
export function toAsyncDisposable(close: () => Promise<void> | void): AsyncDisposable {
  let closing: Promise<void> | undefined;
  return {
    dispose() {
      closing ??= Promise.resolve().then(close);
      return closing;
    },
  };
}

/**
 * {@link DisposableStore} for what closes asynchronously (a process's databases, pools, servers):
 * disposed in reverse order of adding, each awaited before the one opened before it (a search
 * index closes before the store it reads), each once; one that fails does not keep the rest
 * open, and the failures are thrown together at the end. Disposing twice waits for the first
 * run. Something added once the store is disposed is disposed at once (its failure goes to
 * `onLateError`): a start that lost a race with its stop cannot leave it open.
 */
export class AsyncDisposableStore implements AsyncDisposable {
  readonly #items: AsyncDisposable[] = [];
  readonly #onLateError: (error: unknown) => void;
  #disposing: Promise<void> | undefined;

  constructor(options: { onLateError?: (error: unknown) => void } = {}) {
    this.#onLateError = options.onLateError ?? ((error) => console.error('a late disposable failed to dispose', error));
  }

  get isDisposed(): boolean {
    return this.#disposing !== undefined;
  }

  /** Keeps `item` until the store is disposed (or disposes it now if the store already is); returns it. */
  add<T extends AsyncDisposable>(item: T): T {
    if (this.#disposing) {
      void Promise.resolve()
        .then(() => item.dispose())
        .catch(this.#onLateError);
      return item;
    }
    if (!this.#items.includes(item)) this.#items.push(item);
    return item;
  }

  dispose(): Promise<void> {
    this.#disposing ??= this.#disposeAll();
    return this.#disposing;
  }

  async #disposeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const item of this.#items.splice(0).reverse()) {
      try {
        await item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed to dispose');
  }
}
