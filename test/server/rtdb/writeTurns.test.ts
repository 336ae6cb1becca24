// WriteTurns (server/rtdb/writeTurns.ts): large first puts take turns of the event loop, so the
// requests that arrive meanwhile are answered between them; nothing is dropped or reordered.
import { describe, expect, it } from 'vitest';
import { WriteTurns } from '../../../server/rtdb/writeTurns.ts';

/** Writers that each take a turn, write `bytes` (noted in `order`), and release it. */
function writers(turns: WriteTurns, names: readonly string[], bytes: number, order: string[]): Promise<void[]> {
  return Promise.all(
    names.map(async (name) => {
      const release = await turns.take();
      order.push(name);
      // Work that arrives while a writer writes (a request on another connection).
      setImmediate(() => order.push(`other after ${name}`));
      release(bytes);
    }),
  );
}

describe('WriteTurns', () => {
  it('lets small writers through one after another in the same turn of the loop', async () => {
    const turns = new WriteTurns(100);
    const order: string[] = [];
    await writers(turns, ['a', 'b', 'c'], 10, order);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(turns.waiting).toBe(0);
  });

  it('past the budget, lets one writer through per later turn, in the order they asked, with other work in between', async () => {
    const turns = new WriteTurns(100);
    const order: string[] = [];
    await writers(turns, ['a', 'b', 'c', 'd'], 150, order);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order.filter((entry) => !entry.startsWith('other'))).toEqual(['a', 'b', 'c', 'd']);
    for (const [name, next] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
    ]) {
      expect(order.indexOf(`other after ${name}`)).toBeLessThan(order.indexOf(next!));
    }
    expect(turns.waiting).toBe(0);
  });

  it('past the writes of a turn, lets the rest through in later turns: a change sent to many streams does not take one turn for all', async () => {
    const turns = new WriteTurns(1024 * 1024, 2);
    const order: string[] = [];
    await writers(turns, ['a', 'b', 'c', 'd', 'e'], 10, order);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order.filter((entry) => !entry.startsWith('other'))).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Two writes a turn: never more than two writers in a row without other work between them.
    const runs = order.map((entry) => (entry.startsWith('other') ? '|' : 'w')).join('');
    expect(runs.split('|').every((run) => run.length <= 2)).toBe(true);
    expect(order.slice(0, 2)).toEqual(['a', 'b']);
  });

  it('holds the next writer until the one writing releases its turn, even after a failure (released with 0 bytes)', async () => {
    const turns = new WriteTurns(100);
    const release = await turns.take();
    let through = false;
    const next = turns.take().then(() => (through = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(through).toBe(false);
    release(0);
    release(0); // once only
    await next;
    expect(through).toBe(true);
  });
});
