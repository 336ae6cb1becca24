import { describe, expect, it, vi } from 'vitest';
import { AsyncDisposableStore, DisposableStore, toAsyncDisposable, toDisposable } from '../../shared/base/lifecycle.ts';

describe('toDisposable', () => {
  it('undoes once however often it is disposed', () => {
    let undone = 0;
    const handle = toDisposable(() => undone++);
    handle.dispose();
    handle.dispose();
    expect(undone).toBe(1);
  });
});

describe('DisposableStore', () => {
  it('disposes each item once, in reverse order of adding', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    const a = toDisposable(() => order.push('a'));
    store.add(a);
    store.add(toDisposable(() => order.push('b')));
    store.add(a); // the same item twice is held once
    store.add(toDisposable(() => order.push('c')));
    store.dispose();
    store.dispose();
    expect(order).toEqual(['c', 'b', 'a']);
    expect(store.isDisposed).toBe(true);
  });

  it('disposes what is added after it was disposed at once', () => {
    const store = new DisposableStore();
    store.dispose();
    let undone = 0;
    const late = store.add(toDisposable(() => undone++));
    expect(undone).toBe(1);
    late.dispose();
    expect(undone).toBe(1);
  });

  it('disposes the rest when one throws, then throws what failed', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('a')));
    store.add(
      toDisposable(() => {
        throw new Error('b broke');
      }),
    );
    store.add(toDisposable(() => order.push('c')));
    expect(() => store.dispose()).toThrow('b broke');
    expect(order).toEqual(['c', 'a']);
  });

  it('gathers several failures into one AggregateError', () => {
    const store = new DisposableStore();
    for (const name of ['x', 'y'])
      store.add(
        toDisposable(() => {
          throw new Error(name);
        }),
      );
    let thrown: unknown;
    try {
      store.dispose();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((error: Error) => error.message)).toEqual(['y', 'x']);
  });

  it('clear disposes what it holds and keeps taking items (a store per account session)', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('first session')));
    store.clear();
    let undone = 0;
    store.add(toDisposable(() => undone++));
    expect(undone).toBe(0);
    store.dispose();
    expect(order).toEqual(['first session']);
    expect(undone).toBe(1);
  });
});

describe('AsyncDisposableStore (what a process opens: databases, pools, servers)', () => {
  /** A part that takes a turn of the event loop to close and notes when it started and ended. */
  const part = (name: string, log: string[], fail?: Error) =>
    toAsyncDisposable(async () => {
      log.push(`closing ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push(`closed ${name}`);
      if (fail) throw fail;
    });

  it('closes the last opened first, each finished before the one opened before it starts', async () => {
    const log: string[] = [];
    const store = new AsyncDisposableStore();
    store.add(part('database', log));
    store.add(part('index', log));
    store.add(toDisposable(() => log.push('listener dropped'))); // a synchronous Disposable is one too
    await store.dispose();
    expect(log).toEqual(['listener dropped', 'closing index', 'closed index', 'closing database', 'closed database']);
    expect(store.isDisposed).toBe(true);
  });

  it('closes once: a second dispose waits for the first run', async () => {
    let closed = 0;
    const store = new AsyncDisposableStore();
    store.add(toAsyncDisposable(async () => void closed++));
    const first = store.dispose();
    const second = store.dispose();
    expect(second).toBe(first);
    await second;
    expect(closed).toBe(1);
  });

  it('closes the rest when one fails, then rejects with what failed (several: one AggregateError)', async () => {
    const log: string[] = [];
    const one = new AsyncDisposableStore();
    one.add(part('a', log));
    one.add(part('b', log, new Error('b broke')));
    await expect(one.dispose()).rejects.toThrow('b broke');
    expect(log).toEqual(['closing b', 'closed b', 'closing a', 'closed a']);

    const two = new AsyncDisposableStore();
    two.add(part('x', [], new Error('x broke')));
    two.add(part('y', [], new Error('y broke')));
    const thrown = await two.dispose().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((error: Error) => error.message)).toEqual(['y broke', 'x broke']);
  });

  it('closes at once what is added after it was disposed, and reports its failure', async () => {
    const late: unknown[] = [];
    const store = new AsyncDisposableStore({ onLateError: (error) => late.push(error) });
    await store.dispose();
    const log: string[] = [];
    store.add(part('opened too late', log, new Error('late broke')));
    await vi.waitFor(() => expect(late).toEqual([new Error('late broke')]));
    expect(log).toEqual(['closing opened too late', 'closed opened too late']);
  });
});

describe('toAsyncDisposable', () => {
  it('runs its close once however often it is disposed, and each call waits for that run', async () => {
    let runs = 0;
    let finish!: () => void;
    const handle = toAsyncDisposable(() => {
      runs++;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const first = handle.dispose();
    const second = handle.dispose();
    await Promise.resolve();
    finish();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
  });
});
