import { describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from '../../shared/base/lifecycle.ts';

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
